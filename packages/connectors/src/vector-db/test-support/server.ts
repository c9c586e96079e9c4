import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { MilvusClient } from '@zilliz/milvus2-sdk-node';

/** The test server's address, exported by the integration project's global set-up. */
export function vectorDbUri(): string {
  const uri = process.env.VECTOR_DB_URI;
  if (!uri) throw new Error('VECTOR_DB_URI is not set: run through the vitest integration project');
  return uri;
}

/** A collection name unique to this test process (milvus-lite wants one writer per collection). */
export function uniqueCollection(prefix: string): string {
  return `${prefix}_${process.pid}_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e6)}`;
}

export function adminClient(uri = vectorDbUri()): MilvusClient {
  const client = new MilvusClient({ address: uri, timeout: 30_000, logLevel: 'error' });
  client.connectPromise.catch(() => {});
  return client;
}

/** Every row of a record, read with strong consistency. */
export async function rowsOf(
  client: MilvusClient,
  collection: string,
  filter: string,
  fields: string[] = ['element_id'],
): Promise<Record<string, unknown>[]> {
  const answer = await client.query({
    collection_name: collection,
    filter,
    output_fields: fields,
    consistency_level: 'Strong',
    limit: 16_384,
  });
  if (answer.status.error_code !== 'Success') throw new Error(`query failed: ${answer.status.reason}`);
  return answer.data;
}

/** The milvus-lite program that `npm run services` installed, when it is there. */
export function liteProgram(): string | undefined {
  const root = process.env.DOCSVC_SERVICES_DIR || join(homedir(), '.cache', 'docsvc-services');
  const program = join(root, 'dist', 'vector-db', 'venv', 'bin', 'milvus-lite');
  return existsSync(program) ? program : undefined;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.setTimeout(500);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.connect(port, '127.0.0.1');
  });
}

/**
 * A milvus-lite server of this test's own, on a free port with its own data folder, that the test may kill
 * (SIGKILL, like a crash) and start again on the same data.
 */
export class LiteServer {
  private child: ChildProcess | undefined;
  readonly dataDir = mkdtempSync(join(tmpdir(), 'vector-db-lite-'));
  port = 0;

  constructor(private readonly program: string) {}

  get uri(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    if (this.port === 0) this.port = await freePort();
    const child = spawn(
      this.program,
      ['server', '--data-dir', this.dataDir, '--host', '127.0.0.1', '--port', String(this.port)],
      { stdio: 'ignore', env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: this.dataDir } },
    );
    this.child = child;
    const deadline = Date.now() + 90_000;
    while (!(await portOpen(this.port))) {
      if (child.exitCode !== null) throw new Error(`milvus-lite exited with ${child.exitCode}`);
      if (Date.now() > deadline) throw new Error('milvus-lite did not start within 90 s');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  /** SIGKILL: no shutdown, as in a crash. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  async dispose(): Promise<void> {
    await this.kill();
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}
