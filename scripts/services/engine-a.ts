import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HEAP, HOST, PORTS, SCRIPT_DIR, USERS, VERSIONS } from './config.js';
import { mavenCopyDependencies, singleFile, unzip } from './fetchers.js';
import { httpJson } from './http.js';
import { findJava, javacOf } from './java.js';
import { run, ServicesError } from './process.js';
import type { Context, Launch, ServerModule } from './service.js';
import { ensureTraversable, handOver } from './service-user.js';

/**
 * engine_a: a real Elasticsearch 8.x, from the integ-test distribution zip that Elastic publishes on Maven
 * Central. That zip holds the server plus the transport-netty4, x-pack-core, x-pack-security and apm
 * modules only. Security is on (basic auth with a bootstrap password for `elastic`, API keys through the
 * security API); TLS is off here and provided by the nginx front (proxy.ts).
 *
 * The security plugin stores API keys in its `.security` index, whose settings use analysis components
 * from the analysis-common module, which the zip lacks and which is not published on its own. A small
 * module of ours (engine-a-analysis/) registers just those components; see its source for the why.
 */

const DIST_NAME = 'engine-a';
const RUN_NAME = 'engine-a';
const BASE_URL = `http://${HOST}:${PORTS.engineA}`;
const ANALYSIS_MODULE = 'docsvc-analysis';

function home(ctx: Context): string {
  return join(ctx.paths.dist(DIST_NAME), `elasticsearch-${VERSIONS.engineA}`);
}

function installedMarker(ctx: Context): string {
  return join(ctx.paths.dist(DIST_NAME), `.installed-${VERSIONS.engineA}`);
}

function basicAuth(ctx: Context): string {
  return `${USERS.engineA}:${ctx.secrets.engineAPassword}`;
}

export interface EngineAApiKey {
  id: string;
  api_key: string;
  /** base64 of `id:api_key`, the form clients send in `Authorization: ApiKey …`. */
  encoded: string;
}

export function apiKeyFile(ctx: Context): string {
  return join(ctx.paths.run(RUN_NAME), 'api-key.json');
}

export function readApiKey(ctx: Context): EngineAApiKey | undefined {
  const file = apiKeyFile(ctx);
  if (!existsSync(file)) return undefined;
  return JSON.parse(readFileSync(file, 'utf8')) as EngineAApiKey;
}

async function install(ctx: Context): Promise<void> {
  const dist = ctx.paths.dist(DIST_NAME);
  const download = join(dist, 'download');
  ctx.log(`engine_a: downloading Elasticsearch ${VERSIONS.engineA} (integ-test zip) from Maven Central`);
  await mavenCopyDependencies(join(SCRIPT_DIR, 'maven', 'engine-a.pom.xml'), ctx.paths.mavenRepo, download);
  rmSync(home(ctx), { recursive: true, force: true });
  await unzip(singleFile(download, '.zip'), dist);
  rmSync(download, { recursive: true, force: true });
  await buildAnalysisModule(ctx);
  writeFileSync(installedMarker(ctx), `${new Date().toISOString()}\n`);
}

/** Compiles engine-a-analysis/*.java against the distribution's own jars and drops it in as a module. */
async function buildAnalysisModule(ctx: Context): Promise<void> {
  const java = await findJava();
  const esHome = home(ctx);
  const build = join(ctx.paths.dist(DIST_NAME), 'analysis-build');
  const moduleDir = join(esHome, 'modules', ANALYSIS_MODULE);
  rmSync(build, { recursive: true, force: true });
  mkdirSync(join(build, 'classes'), { recursive: true });
  mkdirSync(moduleDir, { recursive: true });
  const source = join(SCRIPT_DIR, 'engine-a-analysis', 'DocsvcAnalysisPlugin.java');
  await run(javacOf(java), [
    '-nowarn',
    '--release',
    '17',
    '-cp',
    `${join(esHome, 'lib')}/*`,
    '-d',
    join(build, 'classes'),
    source,
  ]);
  await run(join(java.home, 'bin', 'jar'), [
    'cf',
    join(moduleDir, `${ANALYSIS_MODULE}.jar`),
    '-C',
    join(build, 'classes'),
    '.',
  ]);
  writeFileSync(
    join(moduleDir, 'plugin-descriptor.properties'),
    [
      'description=Test-only analysis components for the security index (uax_url_email, pattern_capture, unique)',
      `version=${VERSIONS.engineA}`,
      `name=${ANALYSIS_MODULE}`,
      'classname=docsvc.testservices.DocsvcAnalysisPlugin',
      'java.version=17',
      `elasticsearch.version=${VERSIONS.engineA}`,
      '',
    ].join('\n'),
  );
  rmSync(build, { recursive: true, force: true });
}

function elasticsearchYml(runDir: string): string {
  return [
    '# Written by scripts/services/engine-a.ts on every start; edits are overwritten.',
    'cluster.name: docsvc-engine-a',
    'node.name: engine-a',
    'discovery.type: single-node',
    `network.host: ${HOST}`,
    `http.port: ${PORTS.engineA}`,
    `transport.port: ${PORTS.engineATransport}`,
    `path.data: ${join(runDir, 'data')}`,
    `path.logs: ${join(runDir, 'logs')}`,
    'xpack.security.enabled: true',
    'xpack.security.autoconfiguration.enabled: false',
    'xpack.security.http.ssl.enabled: false',
    'xpack.security.transport.ssl.enabled: false',
    'xpack.security.authc.api_key.enabled: true',
    '# A nearly full disk must not turn indices read-only in the middle of a test run.',
    'cluster.routing.allocation.disk.threshold_enabled: false',
    'action.destructive_requires_name: false',
    '',
  ].join('\n');
}

function esEnv(ctx: Context, javaHome: string): NodeJS.ProcessEnv {
  const runDir = ctx.paths.run(RUN_NAME);
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: runDir,
    LANG: 'C.UTF-8',
    ES_JAVA_HOME: javaHome,
    ES_PATH_CONF: join(runDir, 'config'),
    ES_TMPDIR: join(runDir, 'tmp'),
    // C1 only: start-up costs about half the CPU, and test workloads never need C2's peak speed.
    ES_JAVA_OPTS: `-Xms${HEAP.engineA} -Xmx${HEAP.engineA} -XX:TieredStopAtLevel=1`,
  };
}

async function prepare(ctx: Context): Promise<Launch> {
  const java = await findJava();
  const runDir = ctx.paths.run(RUN_NAME);
  const config = join(runDir, 'config');
  for (const dir of ['data', 'logs', 'tmp']) mkdirSync(join(runDir, dir), { recursive: true });
  if (!existsSync(join(config, 'jvm.options'))) {
    cpSync(join(home(ctx), 'config'), config, { recursive: true });
  }
  writeFileSync(join(config, 'elasticsearch.yml'), elasticsearchYml(runDir));
  await handOver(runDir, ctx.serviceUser);
  await ensureTraversable(runDir, ctx.serviceUser);
  await ensureTraversable(home(ctx), ctx.serviceUser);
  if (!existsSync(join(config, 'elasticsearch.keystore'))) {
    // The bootstrap password becomes the `elastic` user's password when the security index is created.
    const keystore = join(home(ctx), 'bin', 'elasticsearch-keystore');
    const options = { env: esEnv(ctx, java.home), runAs: ctx.serviceUser, cwd: runDir };
    await run(keystore, ['create'], options);
    await run(keystore, ['add', '-x', 'bootstrap.password'], {
      ...options,
      input: ctx.secrets.engineAPassword,
    });
  }
  return {
    cmd: join(home(ctx), 'bin', 'elasticsearch'),
    args: [],
    env: esEnv(ctx, java.home),
    cwd: runDir,
    marker: config,
  };
}

async function healthy(ctx: Context): Promise<boolean> {
  const res = await httpJson(`${BASE_URL}/_cluster/health?wait_for_status=yellow&timeout=2s`, {
    basicAuth: basicAuth(ctx),
  });
  if (res.status === 401) {
    throw new ServicesError(
      `engine_a rejects the stored password for ${USERS.engineA}; its data folder was made with another ` +
        `one. Remove ${ctx.paths.run(RUN_NAME)} (or the whole cache) and run up again.`,
    );
  }
  if (res.status !== 200 || res.headers['x-elastic-product'] !== 'Elasticsearch') return false;
  const status = res.json<{ status?: string }>().status;
  return status === 'green' || status === 'yellow';
}

/** Reuses the stored API key while the server still accepts it; otherwise creates a new one. */
async function ensureApiKey(ctx: Context): Promise<void> {
  const stored = readApiKey(ctx);
  if (stored) {
    const check = await httpJson(`${BASE_URL}/_security/_authenticate`, {
      headers: { authorization: `ApiKey ${stored.encoded}` },
    });
    if (check.status === 200) return;
  }
  const res = await httpJson(`${BASE_URL}/_security/api_key`, {
    method: 'POST',
    basicAuth: basicAuth(ctx),
    body: { name: 'docsvc-tests', metadata: { created_by: 'scripts/services' } },
  });
  if (res.status !== 200)
    throw new ServicesError(`engine_a: creating an API key failed (${res.status}): ${res.text}`);
  const key = res.json<EngineAApiKey>();
  writeFileSync(
    apiKeyFile(ctx),
    `${JSON.stringify({ id: key.id, api_key: key.api_key, encoded: key.encoded })}\n`,
    {
      mode: 0o600,
    },
  );
}

async function version(ctx: Context): Promise<string> {
  // The zip has no rest-root module, so `GET /` (the clients' info()/ping()) answers 405.
  const res = await httpJson(`${BASE_URL}/_nodes/_local?filter_path=nodes.*.version`, {
    basicAuth: basicAuth(ctx),
  });
  const nodes = res.json<{ nodes?: Record<string, { version: string }> }>().nodes ?? {};
  const first = Object.values(nodes)[0];
  if (!first) throw new ServicesError(`engine_a: no version in ${res.text}`);
  return `Elasticsearch ${first.version}`;
}

export const engineA: ServerModule = {
  name: 'engine_a',
  port: PORTS.engineA,
  ports: [PORTS.engineA, PORTS.engineATransport],
  dropsRoot: true,
  startTimeoutMs: 240_000,
  stopSignal: 'SIGTERM',
  installed: (ctx) => existsSync(installedMarker(ctx)),
  install,
  prepare,
  healthy,
  afterStart: ensureApiKey,
  version,
};

export const ENGINE_A_URL = BASE_URL;
