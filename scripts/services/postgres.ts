import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureDebianPackages } from './apt.js';
import { HOST, PORTS, POSTGRES_DATABASE, USERS } from './config.js';
import { isOurProcess, run, ServicesError } from './process.js';
import type { Context, Launch, ServerModule } from './service.js';
import { ensureTraversable, handOver } from './service-user.js';

/**
 * PostgreSQL from Debian for the server's storage tests: a private cluster made with initdb inside the
 * cache folder (not the system cluster), password auth (scram-sha-256), durability switched off because
 * it is throw-away test data.
 */

const RUN_NAME = 'postgres';

function binDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((name) => /^\d+$/.test(name) && existsSync(join(root, name, 'bin', 'postgres')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0)
    throw new ServicesError('PostgreSQL is not installed (Debian package postgresql)');
  return join(root, versions[0]!, 'bin');
}

function installed(): boolean {
  try {
    binDir();
    return true;
  } catch {
    return false;
  }
}

async function install(ctx: Context): Promise<void> {
  await ensureDebianPackages(['postgresql'], ctx.log);
}

export function postgresUrl(ctx: Context, database = POSTGRES_DATABASE): string {
  const password = encodeURIComponent(ctx.secrets.postgresPassword);
  return `postgres://${USERS.postgres}:${password}@${HOST}:${PORTS.postgres}/${database}`;
}

async function prepare(ctx: Context): Promise<Launch> {
  const runDir = ctx.paths.run(RUN_NAME);
  const data = join(runDir, 'data');
  const socket = join(runDir, 'socket');
  mkdirSync(socket, { recursive: true });
  await ensureTraversable(runDir, ctx.serviceUser);
  if (!existsSync(join(data, 'PG_VERSION'))) {
    rmSync(data, { recursive: true, force: true });
    const pwfile = join(runDir, 'initdb-password');
    writeFileSync(pwfile, `${ctx.secrets.postgresPassword}\n`, { mode: 0o600 });
    await handOver(runDir, ctx.serviceUser);
    try {
      await run(
        join(binDir(), 'initdb'),
        [
          '-D',
          data,
          '-U',
          USERS.postgres,
          `--pwfile=${pwfile}`,
          '--auth=scram-sha-256',
          '--encoding=UTF8',
          '--locale=C.UTF-8',
          '--no-instructions',
        ],
        { runAs: ctx.serviceUser, cwd: runDir },
      );
    } finally {
      rmSync(pwfile, { force: true });
    }
  }
  removeStalePidFile(data);
  await handOver(runDir, ctx.serviceUser);
  return {
    cmd: join(binDir(), 'postgres'),
    args: [
      '-D',
      data,
      '-c',
      `listen_addresses=${HOST}`,
      '-c',
      `port=${PORTS.postgres}`,
      '-c',
      `unix_socket_directories=${socket}`,
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
      '-c',
      'shared_buffers=64MB',
      '-c',
      'max_connections=60',
    ],
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' },
    cwd: runDir,
    marker: data,
  };
}

/**
 * A postmaster killed with the machine (CI runs after the session's processes are gone) leaves
 * postmaster.pid behind; if an unrelated process now has that pid, PostgreSQL would refuse to start.
 */
function removeStalePidFile(data: string): void {
  const file = join(data, 'postmaster.pid');
  if (!existsSync(file)) return;
  const pid = Number(readFileSync(file, 'utf8').split('\n')[0]);
  if (Number.isInteger(pid) && pid > 0 && isOurProcess(pid, data)) return;
  rmSync(file, { force: true });
}

async function query<T>(ctx: Context, database: string, sql: string): Promise<T[]> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({
    connectionString: postgresUrl(ctx, database),
    // Generous: under load, loading another client library (gRPC) can hold the event loop for seconds.
    connectionTimeoutMillis: 15_000,
  });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

async function healthy(ctx: Context): Promise<boolean> {
  const rows = await query<{ ok: number }>(ctx, 'postgres', 'SELECT 1 AS ok');
  return rows[0]?.ok === 1;
}

async function createTestDatabase(ctx: Context): Promise<void> {
  const rows = await query(
    ctx,
    'postgres',
    `SELECT 1 FROM pg_database WHERE datname = '${POSTGRES_DATABASE}'`,
  );
  if (rows.length === 0) await query(ctx, 'postgres', `CREATE DATABASE ${POSTGRES_DATABASE}`);
}

async function version(ctx: Context): Promise<string> {
  const rows = await query<{ server_version: string }>(ctx, 'postgres', 'SHOW server_version');
  return `PostgreSQL ${rows[0]?.server_version ?? '?'}`;
}

export const postgres: ServerModule = {
  name: 'postgres',
  port: PORTS.postgres,
  ports: [PORTS.postgres],
  dropsRoot: true,
  startTimeoutMs: 60_000,
  // SIGINT is PostgreSQL's "fast" shutdown; SIGTERM would wait for every client to disconnect.
  stopSignal: 'SIGINT',
  installed,
  install,
  prepare,
  healthy,
  afterStart: createTestDatabase,
  version,
};
