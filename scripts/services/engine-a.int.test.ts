import { readFileSync } from 'node:fs';
import { Client, errors } from '@elastic/elasticsearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireServiceEnv, serviceEnv } from './env.js';
import { axisVector, specProperties, specRecord, uniqueName } from './smoke-support.js';

/**
 * engine_a smoke suite: a real Elasticsearch 8 answers with its product header (the official client
 * refuses anything else), keeps data, ranks vectors, and enforces its authentication, directly and
 * through the TLS front.
 */

const DIMENSION = 8;
const env = serviceEnv();
const host = requireServiceEnv('ENGINE_A_HOST');
const apiKey = {
  id: requireServiceEnv('ENGINE_A_CLOUD_API_KEY_ID'),
  api_key: requireServiceEnv('ENGINE_A_CLOUD_API_KEY'),
};
const index = uniqueName('smoke-engine-a').toLowerCase();

const basicClient = () =>
  new Client({
    node: host,
    auth: {
      username: requireServiceEnv('ENGINE_A_USERNAME'),
      password: requireServiceEnv('ENGINE_A_PASSWORD'),
    },
  });
const apiKeyClient = () => new Client({ node: host, auth: { apiKey } });

describe('engine_a (Elasticsearch 8)', () => {
  const client = apiKeyClient();

  beforeAll(async () => {
    await client.indices.create({
      index,
      settings: { number_of_shards: 1, number_of_replicas: 0 },
      mappings: {
        properties: {
          ...specProperties(),
          embeddings: { type: 'dense_vector', dims: DIMENSION, index: true, similarity: 'cosine' },
        },
      },
    });
    await client.bulk({
      refresh: true,
      operations: [0, 1, 2].flatMap((axis) => [
        { index: { _index: index, _id: `element-${axis}` } },
        specRecord(`element-${axis}`, `text number ${axis}`, axisVector(DIMENSION, axis), axis + 1),
      ]),
    });
  });

  afterAll(async () => {
    await client.indices.delete({ index, ignore_unavailable: true });
    await client.close();
  });

  it('is Elasticsearch 8.x', async () => {
    const info = await client.nodes.info({ node_id: '_local', filter_path: 'nodes.*.version' });
    const versions = Object.values(info.nodes ?? {}).map((node) => node.version);
    expect(versions).toHaveLength(1);
    expect(versions[0]).toMatch(/^8\.\d+\.\d+$/);
  });

  it('reads back what was written, with the SPEC mapping in place', async () => {
    const doc = await client.get<{ text: string; metadata: { page_number: number } }>({
      index,
      id: 'element-1',
    });
    expect(doc._source?.text).toBe('text number 1');
    expect(doc._source?.metadata.page_number).toBe(2);
    const mapping = await client.indices.getMapping({ index });
    const embeddings = mapping[index]?.mappings.properties?.embeddings as Record<string, unknown>;
    expect(embeddings).toMatchObject({
      type: 'dense_vector',
      dims: DIMENSION,
      index: true,
      similarity: 'cosine',
    });
  });

  it('answers a knn search with the nearest vector first', async () => {
    const result = await client.search<{ element_id: string }>({
      index,
      knn: { field: 'embeddings', query_vector: axisVector(DIMENSION, 2), k: 2, num_candidates: 10 },
      _source: ['element_id'],
    });
    expect(result.hits.hits.map((hit) => hit._source?.element_id)).toEqual(['element-2', expect.any(String)]);
  });

  it('authenticates with basic auth and rejects a wrong password', async () => {
    const basic = basicClient();
    expect((await basic.security.authenticate()).username).toBe('elastic');
    await basic.close();
    const wrong = new Client({ node: host, auth: { username: 'elastic', password: 'not-the-password' } });
    await expect(wrong.security.authenticate()).rejects.toMatchObject({ meta: { statusCode: 401 } });
    await wrong.close();
  });

  it('authenticates with the API key, as id + key and in its encoded form', async () => {
    const me = await client.security.authenticate();
    expect(me.authentication_type).toBe('api_key');
    expect(me.api_key?.id).toBe(apiKey.id);
    const encoded = new Client({
      node: host,
      auth: { apiKey: requireServiceEnv('ENGINE_A_API_KEY_ENCODED') },
    });
    expect((await encoded.security.authenticate()).api_key?.id).toBe(apiKey.id);
    await encoded.close();
  });

  it('has no _delete_by_query (the integ-test distribution lacks the reindex module)', async () => {
    await expect(client.deleteByQuery({ index, query: { match_all: {} } })).rejects.toBeInstanceOf(
      errors.ResponseError,
    );
  });
});

describe.skipIf(!env.engineA.proxyHost)('engine_a through the TLS front', () => {
  const proxyHost = env.engineA.proxyHost ?? '';

  it('verifies the server with the CA bundle and authenticates with the API key', async () => {
    const ca = readFileSync(requireServiceEnv('ENGINE_A_CA_CERTS'));
    const tls = new Client({ node: proxyHost, auth: { apiKey }, tls: { ca } });
    expect((await tls.security.authenticate()).api_key?.id).toBe(apiKey.id);
    await tls.close();
  });

  it('verifies the server by CA fingerprint and authenticates with basic auth', async () => {
    const pinned = new Client({
      node: proxyHost,
      auth: {
        username: requireServiceEnv('ENGINE_A_USERNAME'),
        password: requireServiceEnv('ENGINE_A_PASSWORD'),
      },
      caFingerprint: requireServiceEnv('ENGINE_A_SSL_ASSERT_FINGERPRINT'),
      tls: { rejectUnauthorized: false },
    });
    expect((await pinned.security.authenticate()).username).toBe('elastic');
    await pinned.close();
  });

  it('refuses a wrong fingerprint and an unknown CA', async () => {
    const wrongPin = new Client({
      node: proxyHost,
      auth: { apiKey },
      caFingerprint: 'AA:'.repeat(31) + 'AA',
      tls: { rejectUnauthorized: false },
      maxRetries: 0,
    });
    await expect(wrongPin.security.authenticate()).rejects.toThrow(/fingerprint/i);
    await wrongPin.close();
    const noCa = new Client({ node: proxyHost, auth: { apiKey }, maxRetries: 0 });
    await expect(noCa.security.authenticate()).rejects.toBeInstanceOf(errors.ConnectionError);
    await noCa.close();
  });
});
