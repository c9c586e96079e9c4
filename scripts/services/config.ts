import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Fixed facts about the test services: versions, ports and where things live. Ports are fixed and
 * non-default so that the services never collide with a developer's own Elasticsearch/OpenSearch/Milvus/
 * PostgreSQL on the usual ports, and so that `env` can print the same addresses every time.
 */

export const SERVICE_NAMES = ['engine_a', 'engine_b', 'vector_db', 'postgres', 'proxy'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

export const HOST = '127.0.0.1';

export const PORTS = {
  engineA: 19200,
  engineATransport: 19300,
  /** The codelibs runner derives the HTTP port as base + node number and caps it at 9299. */
  engineB: 9250,
  engineBTransport: 9350,
  vectorDb: 19531,
  postgres: 15432,
  /** nginx: TLS in front of engine_a; authentication is engine_a's own (basic or API key). */
  proxyEngineA: 19243,
  /** nginx: TLS + basic auth in front of engine_b (which runs without a security plugin). */
  proxyEngineB: 19253,
  /** nginx: TLS + required client certificate in front of engine_b. */
  proxyEngineBClientCert: 19254,
  /** nginx: gRPC over TLS + credentials checked by nginx in front of vector_db (milvus-lite has no auth). */
  proxyVectorDb: 19533,
} as const;

export const VERSIONS = {
  engineA: '8.19.21',
  engineBRunner: '2.19.1.0',
  engineBKnn: '2.19.1.0',
  milvusLite: '3.2.2',
  pymilvus: '3.0.2',
} as const;

/** JVM heaps: small on purpose, the machines have 2 cores and are shared. */
export const HEAP = { engineA: '512m', engineB: '512m' } as const;

/** The unprivileged account the servers run as when the script is started by root. */
export const SERVICE_USER = 'docsvc';

/** Fixed user names; passwords are random per cache folder (see secrets.ts). */
export const USERS = {
  engineA: 'elastic',
  engineB: 'docsvc',
  vectorDb: 'docsvc',
  postgres: 'docsvc',
} as const;
export const POSTGRES_DATABASE = 'docsvc_test';

export interface Paths {
  /** Root of everything the services download, generate and store. */
  root: string;
  /** Maven local repository (kept inside the cache so ~/.m2 is not needed). */
  mavenRepo: string;
  dist: (name: string) => string;
  run: (name: string) => string;
  tls: string;
  secrets: string;
  lock: string;
}

export function cacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  const override = env.DOCSVC_SERVICES_DIR;
  if (override && override.trim() !== '') return resolve(override);
  return join(homedir(), '.cache', 'docsvc-services');
}

export function paths(root = cacheRoot()): Paths {
  return {
    root,
    mavenRepo: join(root, 'm2'),
    dist: (name) => join(root, 'dist', name),
    run: (name) => join(root, 'run', name),
    tls: join(root, 'tls'),
    secrets: join(root, 'secrets.json'),
    lock: join(root, 'run', '.lock'),
  };
}

/** The folder that holds this module (pom files, the Java source of the engine_a analysis module). */
export const SCRIPT_DIR = dirname(fileURLToPath(import.meta.url));
