import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import type { ServerConfig } from './config.js';
import { SecretBox } from './keys/crypto.js';
import { DEFAULT_WORKSPACE, KeyStore } from './keys/store.js';
import { type OpenDatabase, openDatabase } from './storage/database.js';

export const VERSION = '0.1.0';

export interface Service {
  app: FastifyInstance;
  database: OpenDatabase;
  keys: KeyStore;
  /** The key created on the very first start of an empty database (printed once by the CLI). */
  initialKey?: string;
  close(): Promise<void>;
}

/**
 * Wire the service together: data folder, master key, database (+ migrations), default workspace and
 * keys, then the HTTP app. On the first start of an empty database one workspace and one key are
 * created, so the quick start needs no other step.
 */
export async function createService(
  config: ServerConfig,
  options: { freeMemory?: () => number } = {},
): Promise<Service> {
  const dataDir = resolve(config.data_dir);
  await mkdir(dataDir, { recursive: true });
  const box = new SecretBox(config.secret_key ?? (await loadOrCreateMasterKey(dataDir)));
  const database = await openDatabase({ databaseUrl: config.database_url, dataDir });
  try {
    const keys = new KeyStore(database.db, box);
    const firstStart = (await keys.countWorkspaces()) === 0;
    const workspace = await keys.ensureWorkspace(DEFAULT_WORKSPACE);
    let initialKey: string | undefined;
    if (config.api_key) await keys.ensureKey(workspace.id, 'SERVICE_API_KEY', config.api_key);
    else if (firstStart) initialKey = (await keys.createKey(workspace.id, 'initial key')).key;
    const app = await buildApp({ config, keys, version: VERSION, freeMemory: options.freeMemory });
    return {
      app,
      database,
      keys,
      initialKey,
      async close() {
        await app.close();
        await database.close();
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}

/** The master key lives in `<data_dir>/secret.key` (mode 0600) unless SERVICE_SECRET_KEY is given. */
export async function loadOrCreateMasterKey(dataDir: string): Promise<string> {
  const path = join(dataDir, 'secret.key');
  try {
    return (await readFile(path, 'utf8')).trim();
  } catch {
    const key = randomBytes(32).toString('base64url');
    await writeFile(path, `${key}\n`, { mode: 0o600, flag: 'wx' }).catch(async () => undefined);
    return (await readFile(path, 'utf8')).trim();
  }
}
