import { describe, expect, it } from 'vitest';
import { openDatabase } from '../storage/database.js';
import { describeKeyStore } from './store-behaviour.js';

const url = process.env.TEST_DATABASE_URL;

describe('PostgreSQL for the storage suite', () => {
  it('is configured by the test services (TEST_DATABASE_URL)', () => {
    expect(url, 'TEST_DATABASE_URL is set by scripts/services global setup').toBeTruthy();
  });
});

describeKeyStore('PostgreSQL', async () => {
  if (!url) throw new Error('TEST_DATABASE_URL is not set');
  const database = await openDatabase({ databaseUrl: url, dataDir: '/nonexistent' });
  expect(database.kind).toBe('postgresql');
  return database;
});
