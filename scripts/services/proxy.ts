import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureDebianPackages } from './apt.js';
import { HOST, PORTS, USERS } from './config.js';
import { httpJson } from './http.js';
import { run, ServicesError } from './process.js';
import type { Context, Launch, ServerModule } from './service.js';
import { ensureTraversable, handOver } from './service-user.js';
import { ensureTls, type TlsFiles, tlsFiles } from './tls.js';

/**
 * nginx from Debian as the TLS front of both search engines, so that every client auth path is exercised
 * against a real TLS endpoint:
 *   - engine_a over TLS (CA bundle or CA fingerprint); authentication stays engine_a's own (basic or API
 *     key), the Authorization header is passed through;
 *   - engine_b over TLS with basic auth checked by nginx (engine_b has no security plugin);
 *   - engine_b over TLS with a required client certificate signed by the test CA;
 *   - vector_db's gRPC over TLS with credentials checked by nginx: milvus-lite has neither TLS nor auth,
 *     so nginx accepts only the `authorization` metadata the Milvus clients send for the test user
 *     (base64 of "user:password", which is also what a "user:password" token becomes) and answers
 *     anything else with HTTP 401, which gRPC clients report as UNAUTHENTICATED.
 */

const RUN_NAME = 'proxy';
const NGINX = '/usr/sbin/nginx';
export const PROXY_HEALTH_PATH = '/__docsvc_proxy_health';

function nginxConf(runDir: string, tls: TlsFiles, vectorDbAuthorization: string): string {
  const tmp = join(runDir, 'tmp');
  const health = `    location = ${PROXY_HEALTH_PATH} { auth_basic off; return 200 "ok\\n"; }`;
  const proxied = [
    '      proxy_http_version 1.1;',
    '      proxy_set_header Connection "";',
    '      proxy_set_header Host $host;',
    '      proxy_request_buffering off;',
    '      proxy_read_timeout 300s;',
  ];
  return [
    '# Written by scripts/services/proxy.ts on every start; edits are overwritten.',
    'worker_processes 1;',
    'daemon off;',
    `pid ${join(runDir, 'nginx.pid')};`,
    `error_log ${join(runDir, 'error.log')} warn;`,
    'events { worker_connections 256; }',
    'http {',
    `  access_log ${join(runDir, 'access.log')};`,
    `  client_body_temp_path ${tmp}/body;`,
    `  proxy_temp_path ${tmp}/proxy;`,
    `  fastcgi_temp_path ${tmp}/fastcgi;`,
    `  uwsgi_temp_path ${tmp}/uwsgi;`,
    `  scgi_temp_path ${tmp}/scgi;`,
    '  client_max_body_size 200m;',
    '  default_type application/octet-stream;',
    `  ssl_certificate ${tls.serverChain};`,
    `  ssl_certificate_key ${tls.serverKey};`,
    '  ssl_protocols TLSv1.2 TLSv1.3;',
    `  upstream engine_a { server ${HOST}:${PORTS.engineA}; keepalive 8; }`,
    `  upstream engine_b { server ${HOST}:${PORTS.engineB}; keepalive 8; }`,
    '  server {',
    `    listen ${HOST}:${PORTS.proxyEngineA} ssl;`,
    health,
    '    location / {',
    '      proxy_pass http://engine_a;',
    ...proxied,
    '    }',
    '  }',
    '  server {',
    `    listen ${HOST}:${PORTS.proxyEngineB} ssl;`,
    health,
    '    location / {',
    '      auth_basic "engine_b";',
    `      auth_basic_user_file ${tls.htpasswd};`,
    '      proxy_set_header Authorization "";',
    '      proxy_pass http://engine_b;',
    ...proxied,
    '    }',
    '  }',
    '  server {',
    `    listen ${HOST}:${PORTS.proxyEngineBClientCert} ssl;`,
    `    ssl_client_certificate ${tls.caCert};`,
    '    ssl_verify_client on;',
    '    location / {',
    '      proxy_pass http://engine_b;',
    ...proxied,
    '    }',
    '  }',
    '  server {',
    `    listen ${HOST}:${PORTS.proxyVectorDb} ssl http2;`,
    '    location / {',
    `      if ($http_authorization != "${vectorDbAuthorization}") { return 401; }`,
    `      grpc_pass grpc://${HOST}:${PORTS.vectorDb};`,
    '      grpc_read_timeout 300s;',
    '    }',
    '  }',
    '}',
    '',
  ].join('\n');
}

/** The `authorization` metadata a Milvus client sends for the vector_db test user. */
function vectorDbAuthorization(ctx: Context): string {
  return Buffer.from(`${USERS.vectorDb}:${ctx.secrets.vectorDbPassword}`).toString('base64');
}

async function install(ctx: Context): Promise<void> {
  await ensureDebianPackages(['nginx', 'openssl'], ctx.log);
}

async function prepare(ctx: Context): Promise<Launch> {
  const runDir = ctx.paths.run(RUN_NAME);
  mkdirSync(join(runDir, 'tmp'), { recursive: true });
  const tls = await ensureTls(ctx);
  const conf = join(runDir, 'nginx.conf');
  writeFileSync(conf, nginxConf(runDir, tls, vectorDbAuthorization(ctx)));
  await handOver(runDir, ctx.serviceUser);
  await ensureTraversable(runDir, ctx.serviceUser);
  await ensureTraversable(ctx.paths.tls, ctx.serviceUser);
  // -e: nginx opens its default error log before reading the configuration; point it at ours.
  const args = ['-p', runDir, '-e', join(runDir, 'error.log'), '-c', conf];
  await run(NGINX, [...args, '-t', '-q'], { runAs: ctx.serviceUser, cwd: runDir });
  return {
    cmd: NGINX,
    args,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    cwd: runDir,
    marker: runDir,
  };
}

async function healthy(ctx: Context): Promise<boolean> {
  const ca = readFileSync(tlsFiles(ctx).caCert);
  for (const port of [PORTS.proxyEngineA, PORTS.proxyEngineB]) {
    const res = await httpJson(`https://${HOST}:${port}${PROXY_HEALTH_PATH}`, { ca });
    if (res.status !== 200 || res.text.trim() !== 'ok') return false;
  }
  return true;
}

async function version(): Promise<string> {
  // nginx prints its version on stderr.
  const { stderr } = await run(NGINX, ['-v']);
  const match = /nginx\/(\S+)/.exec(stderr);
  if (!match) throw new ServicesError(`proxy: unexpected nginx -v output: ${stderr}`);
  return `nginx ${match[1]} (TLS front on ${PORTS.proxyEngineA}, ${PORTS.proxyEngineB}, ${PORTS.proxyEngineBClientCert}, ${PORTS.proxyVectorDb})`;
}

export const proxy: ServerModule = {
  name: 'proxy',
  port: PORTS.proxyEngineA,
  ports: [PORTS.proxyEngineA, PORTS.proxyEngineB, PORTS.proxyEngineBClientCert, PORTS.proxyVectorDb],
  dropsRoot: true,
  startTimeoutMs: 30_000,
  stopSignal: 'SIGTERM',
  installed: () => existsSync(NGINX),
  install,
  prepare,
  healthy,
  version,
};
