import type { Element } from '@docsvc/partition';
import type { MilvusClient } from '@zilliz/milvus2-sdk-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireServiceEnv, serviceEnv } from '../../../../scripts/services/env.js';
import type { RecordDescriptor } from '../contract.js';
import { checkVectorDbConnection } from './check.js';
import { vectorDbDestinationOptions } from './config.js';
import { VectorDbDestination } from './destination.js';
import { quoteFilterString } from './filter.js';
import { adminClient, rowsOf, uniqueCollection } from './test-support/server.js';

/**
 * vector_db over TLS with credentials: the test services put nginx in front of milvus-lite (which has
 * neither), serving gRPC over TLS with the test CA and letting through only the `authorization` the
 * Milvus clients send for the test user. So these tests prove that the connector's TLS settings and
 * credentials reach the wire, on the SDK's calls and on our own upsert path (wire.ts) alike. Skipped
 * when you bring your own vector_db server (VECTOR_DB_URI set, so no front is started).
 */

const DIMENSION = 4;
let proxy: { uri: string; user: string; password: string; ca: string };
let admin: MilvusClient;
let collection: string;

const front = serviceEnv().vectorDb.proxyUri;

beforeAll(async () => {
  if (!front) return;
  proxy = {
    uri: requireServiceEnv('VECTOR_DB_PROXY_URI'),
    user: requireServiceEnv('VECTOR_DB_PROXY_USER'),
    password: requireServiceEnv('VECTOR_DB_PROXY_PASSWORD'),
    ca: requireServiceEnv('VECTOR_DB_PROXY_CA_CERTS'),
  };
  admin = adminClient();
  await admin.connectPromise;
  collection = uniqueCollection('tls');
  const setup = new VectorDbDestination(
    vectorDbDestinationOptions.parse({
      uri: requireServiceEnv('VECTOR_DB_URI'),
      collection_name: collection,
    }),
    { onWarning: () => {} },
  );
  await setup.createCollection({ dimension: DIMENSION });
  await setup.close();
});

afterAll(async () => {
  if (!front) return;
  await admin.dropCollection({ collection_name: collection }).catch(() => {});
  await admin.closeConnection();
});

const settings = (extra: Record<string, unknown>) => ({
  uri: proxy.uri,
  collection_name: collection,
  ca_certs: proxy.ca,
  timeout_ms: 5000,
  ...extra,
});

describe.skipIf(!front)('vector_db over TLS with credentials', { timeout: 120_000 }, () => {
  it('connects with user and password, or a "user:password" token, verified against the CA', async () => {
    for (const credentials of [
      { user: proxy.user, password: proxy.password },
      { token: `${proxy.user}:${proxy.password}` },
    ]) {
      expect(await checkVectorDbConnection(settings(credentials))).toMatchObject({ ok: true });
    }
  });

  it('says auth for wrong or missing credentials, without showing them', async () => {
    for (const credentials of [{ user: proxy.user, password: 'wrong-password' }, {}]) {
      const check = await checkVectorDbConnection(settings(credentials));
      expect(check).toMatchObject({ ok: false, stage: 'auth' });
      expect(check.message).not.toContain('wrong-password');
    }
  });

  it('says tls when the server certificate cannot be verified, and config for a CA without https', async () => {
    const credentials = { user: proxy.user, password: proxy.password };
    expect(await checkVectorDbConnection(settings({ ...credentials, ca_certs: undefined }))).toMatchObject({
      ok: false,
      stage: 'tls',
    });
    expect(
      await checkVectorDbConnection(settings({ ...credentials, uri: proxy.uri.replace('https:', 'http:') })),
    ).toMatchObject({
      ok: false,
      stage: 'config',
      message: expect.stringMatching(/ca_certs needs an https/),
    });
    expect(
      await checkVectorDbConnection(settings({ ...credentials, ca_certs: '/no/such/ca.pem' })),
    ).toMatchObject({ ok: false, stage: 'config', message: expect.stringMatching(/cannot read ca_certs/) });
  });

  it('writes, replaces and deletes a record through the front', async () => {
    const target = new VectorDbDestination(
      vectorDbDestinationOptions.parse(settings({ user: proxy.user, password: proxy.password })),
      { onWarning: () => {} },
    );
    const record: RecordDescriptor = {
      identifier: '/docs/tls.txt',
      version: '1',
      display_name: 'tls.txt',
      rel_path: 'tls.txt',
      data_source: { url: 'file:///docs/tls.txt', record_locator: { protocol: 'file' } },
    };
    const elements = (texts: string[]): Element[] =>
      texts.map((text, index) => ({
        type: 'NarrativeText',
        element_id: `id-${text}`,
        text,
        metadata: { filename: 'tls.txt' },
        embeddings: Array.from({ length: DIMENSION }, (_, i) => (i === index ? 1 : 0.1)),
      }));
    try {
      await target.precheck({ dimension: DIMENSION });
      expect(await target.upload(target.stage(elements(['one', 'two', 'three']), record))).toEqual({
        written: 3,
        deleted: 0,
      });
      expect(await target.upload(target.stage(elements(['one']), record))).toEqual({
        written: 1,
        deleted: 2,
      });
    } finally {
      await target.close();
    }
    const rows = await rowsOf(admin, collection, `record_id == ${quoteFilterString(record.identifier)}`, [
      'text',
    ]);
    expect(rows.map((row) => row.text)).toEqual(['one']);
  });
});
