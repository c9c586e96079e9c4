import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HOST, PORTS, VERSIONS } from './config.js';
import { pipInstall } from './fetchers.js';
import { portOpen, ServicesError } from './process.js';
import type { Context, Launch, ServerModule } from './service.js';

/**
 * vector_db: milvus-lite 3.x from PyPI, a pure-Python re-implementation of Milvus's gRPC API (storage,
 * FAISS indexes, the MilvusService protocol). It is not the Go/C++ Milvus: it has no authentication,
 * users, RBAC or TLS, and no schema changes after creation (see docs/testing.md). Its gRPC server imports
 * pymilvus's generated stubs, so pymilvus is installed beside it.
 */

const DIST_NAME = 'vector-db';
const RUN_NAME = 'vector-db';

function venv(ctx: Context): string {
  return join(ctx.paths.dist(DIST_NAME), 'venv');
}

function installedMarker(ctx: Context): string {
  return join(ctx.paths.dist(DIST_NAME), `.installed-${VERSIONS.milvusLite}-pymilvus-${VERSIONS.pymilvus}`);
}

async function install(ctx: Context): Promise<void> {
  ctx.log(
    `vector_db: installing milvus-lite ${VERSIONS.milvusLite} and pymilvus ${VERSIONS.pymilvus} from PyPI`,
  );
  mkdirSync(ctx.paths.dist(DIST_NAME), { recursive: true });
  await pipInstall(venv(ctx), [`milvus-lite==${VERSIONS.milvusLite}`, `pymilvus==${VERSIONS.pymilvus}`]);
  writeFileSync(installedMarker(ctx), `${new Date().toISOString()}\n`);
}

async function prepare(ctx: Context): Promise<Launch> {
  const runDir = ctx.paths.run(RUN_NAME);
  mkdirSync(join(runDir, 'data'), { recursive: true });
  return {
    cmd: join(venv(ctx), 'bin', 'milvus-lite'),
    args: ['server', '--data-dir', join(runDir, 'data'), '--host', HOST, '--port', String(PORTS.vectorDb)],
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: runDir, LANG: 'C.UTF-8', PYTHONUNBUFFERED: '1' },
    cwd: runDir,
    marker: runDir,
  };
}

async function version(): Promise<string> {
  // Imported here, not at the top: the SDK pulls in gRPC, which the other commands do not need.
  const { MilvusClient } = await import('@zilliz/milvus2-sdk-node');
  const client = new MilvusClient({
    address: `${HOST}:${PORTS.vectorDb}`,
    timeout: 10_000,
    logLevel: 'warn',
  });
  try {
    const answer = await client.getVersion();
    if (!answer.version) throw new ServicesError(`vector_db: no version in ${JSON.stringify(answer)}`);
    return answer.version;
  } finally {
    await client.closeConnection();
  }
}

export const vectorDb: ServerModule = {
  name: 'vector_db',
  port: PORTS.vectorDb,
  ports: [PORTS.vectorDb],
  dropsRoot: false,
  startTimeoutMs: 90_000,
  stopSignal: 'SIGTERM',
  installed: (ctx) => existsSync(installedMarker(ctx)),
  install,
  prepare,
  healthy: () => portOpen(PORTS.vectorDb),
  version,
};

export const VECTOR_DB_URI = `http://${HOST}:${PORTS.vectorDb}`;
