import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireServiceEnv } from './env.js';
import { uniqueName } from './smoke-support.js';

/** PostgreSQL smoke suite: a real server with password auth keeps and returns rows. */

const table = uniqueName('smoke_postgres');

describe('PostgreSQL', () => {
  const client = new pg.Client({ connectionString: requireServiceEnv('TEST_DATABASE_URL') });

  beforeAll(async () => {
    await client.connect();
  });

  afterAll(async () => {
    await client.query(`DROP TABLE IF EXISTS ${table}`);
    await client.end();
  });

  it('is PostgreSQL 13 or newer', async () => {
    const { rows } = await client.query<{ server_version_num: string }>('SHOW server_version_num');
    expect(Number(rows[0]?.server_version_num)).toBeGreaterThanOrEqual(130_000);
  });

  it('writes and reads a row with JSON', async () => {
    await client.query(`CREATE TABLE ${table} (id text PRIMARY KEY, body jsonb NOT NULL)`);
    await client.query(`INSERT INTO ${table} (id, body) VALUES ($1, $2)`, ['one', { pages: [1, 2] }]);
    const { rows } = await client.query<{ id: string; body: { pages: number[] } }>(
      `SELECT id, body FROM ${table}`,
    );
    expect(rows).toEqual([{ id: 'one', body: { pages: [1, 2] } }]);
  });

  it('rejects a wrong password', async () => {
    const url = new URL(requireServiceEnv('TEST_DATABASE_URL'));
    url.password = 'not-the-password';
    const wrong = new pg.Client({ connectionString: url.toString() });
    await expect(wrong.connect()).rejects.toThrow(/password/);
  });
});
