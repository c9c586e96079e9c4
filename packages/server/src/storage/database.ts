import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { migrateToLatest } from './migrations.js';
import { PgliteSerialPool } from './pglite-pool.js';
import type { Database } from './schema.js';

export interface DatabaseConfig {
  /** PostgreSQL connection string; when absent, the embedded PGlite database in `dataDir` is used. */
  databaseUrl?: string | undefined;
  /** Folder of the embedded database (and other server data). */
  dataDir: string;
}

export interface OpenDatabase {
  db: Kysely<Database>;
  /** "postgresql" or "pglite" */
  kind: 'postgresql' | 'pglite';
  close(): Promise<void>;
}

/** Open the database (PostgreSQL via DATABASE_URL, else embedded PGlite) and run migrations. */
export async function openDatabase(config: DatabaseConfig): Promise<OpenDatabase> {
  let db: Kysely<Database>;
  let kind: OpenDatabase['kind'];
  if (config.databaseUrl) {
    const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 10 });
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    kind = 'postgresql';
  } else {
    const directory = join(config.dataDir, 'db');
    await mkdir(directory, { recursive: true });
    const pglite = await PGlite.create(directory);
    const pool = new PgliteSerialPool(pglite);
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: pool as unknown as pg.Pool }) });
    kind = 'pglite';
  }
  try {
    await migrateToLatest(db as Kysely<unknown>);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return { db, kind, close: () => db.destroy() };
}
