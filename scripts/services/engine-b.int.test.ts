import { readFileSync } from 'node:fs';
import { Client, errors } from '@opensearch-project/opensearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireServiceEnv, serviceEnv } from './env.js';
import { axisVector, specProperties, specRecord, uniqueName } from './smoke-support.js';

/**
 * engine_b smoke suite: a real OpenSearch 2.x with the k-NN plugin accepts SPEC 2.7's engine_b index
 * (knn_vector, Lucene engine, index.knn, ef_search 100), keeps data, ranks vectors, and is reachable with
 * basic auth and with a client certificate through the TLS front.
 */

const DIMENSION = 16;
const env = serviceEnv();
const host = requireServiceEnv('ENGINE_B_HOST');
const index = uniqueName('smoke-engine-b').toLowerCase();
const readIf = (file: string | undefined) => (file ? readFileSync(file) : undefined);

function basicClient(password = env.engineB.password): Client {
  const ca = readIf(env.engineB.caCerts);
  return new Client({
    node: host,
    ...(env.engineB.username ? { auth: { username: env.engineB.username, password: password ?? '' } } : {}),
    ...(ca ? { ssl: { ca } } : {}),
  });
}

describe('engine_b (OpenSearch 2 with k-NN)', () => {
  const client = basicClient();

  beforeAll(async () => {
    await client.indices.create({
      index,
      body: {
        settings: {
          index: { knn: true, 'knn.algo_param.ef_search': 100, number_of_shards: 1, number_of_replicas: 0 },
        },
        mappings: {
          properties: {
            ...specProperties(),
            embeddings: {
              type: 'knn_vector',
              dimension: DIMENSION,
              method: {
                name: 'hnsw',
                engine: 'lucene',
                space_type: 'cosinesimil',
                parameters: { m: 16, ef_construction: 100 },
              },
            },
          },
        },
      },
    });
    await client.bulk({
      refresh: true,
      body: [0, 1, 2].flatMap((axis) => [
        { index: { _index: index, _id: `element-${axis}` } },
        specRecord(`element-${axis}`, `text number ${axis}`, axisVector(DIMENSION, axis), axis + 1),
      ]),
    });
  });

  afterAll(async () => {
    await client.indices.delete({ index, ignore_unavailable: true });
    await client.close();
  });

  it('is OpenSearch 2.x with the k-NN plugin', async () => {
    const info = await client.info();
    expect(info.body.version.distribution).toBe('opensearch');
    expect(info.body.version.number).toMatch(/^2\.\d+\.\d+$/);
    const plugins = await client.cat.plugins({ format: 'json' });
    expect(JSON.stringify(plugins.body)).toContain('KNNPlugin');
  });

  it('keeps the SPEC 2.7 engine_b settings and mapping', async () => {
    const settings = await client.indices.getSettings({ index, flat_settings: true });
    expect(settings.body[index]?.settings).toMatchObject({
      'index.knn': 'true',
      'index.knn.algo_param.ef_search': '100',
    });
    const mapping = await client.indices.getMapping({ index });
    expect(mapping.body[index]?.mappings.properties?.embeddings).toMatchObject({
      type: 'knn_vector',
      dimension: DIMENSION,
      method: { engine: 'lucene', space_type: 'cosinesimil' },
    });
  });

  it('reads back what was written', async () => {
    const doc = await client.get({ index, id: 'element-0' });
    const source = doc.body._source as { text: string; metadata: { filename: string } };
    expect(source.text).toBe('text number 0');
    expect(source.metadata.filename).toBe('smoke.txt');
  });

  it('answers a k-NN query with the nearest vector first', async () => {
    const result = await client.search({
      index,
      body: {
        size: 2,
        query: { knn: { embeddings: { vector: axisVector(DIMENSION, 1), k: 2 } } },
        _source: ['element_id'],
      },
    });
    const ids = result.body.hits.hits.map((hit) => (hit._source as { element_id: string }).element_id);
    expect(ids[0]).toBe('element-1');
    expect(ids).toHaveLength(2);
  });
});

describe.skipIf(!env.engineB.username)('engine_b basic auth through the TLS front', () => {
  it('rejects a wrong password with 401', async () => {
    const wrong = basicClient('not-the-password');
    await expect(wrong.info()).rejects.toMatchObject({ meta: { statusCode: 401 } });
    await wrong.close();
  });

  it('rejects a client that does not trust the test CA', async () => {
    const untrusting = new Client({
      node: host,
      auth: { username: env.engineB.username ?? '', password: env.engineB.password ?? '' },
      maxRetries: 0,
    });
    await expect(untrusting.info()).rejects.toBeInstanceOf(errors.ConnectionError);
    await untrusting.close();
  });
});

describe.skipIf(!env.engineB.clientCertHost)('engine_b client-certificate auth through the TLS front', () => {
  const node = env.engineB.clientCertHost ?? '';
  const ca = readIf(env.engineB.caCerts);

  it('accepts the client certificate', async () => {
    const withCert = new Client({
      node,
      ssl: {
        ca,
        cert: readFileSync(requireServiceEnv('ENGINE_B_CLIENT_CERT')),
        key: readFileSync(requireServiceEnv('ENGINE_B_CLIENT_KEY')),
      },
    });
    expect((await withCert.info()).body.version.distribution).toBe('opensearch');
    await withCert.close();
  });

  it('refuses a client without a certificate', async () => {
    const withoutCert = new Client({ node, ssl: { ca }, maxRetries: 0 });
    await expect(withoutCert.info()).rejects.toMatchObject({ meta: { statusCode: 400 } });
    await withoutCert.close();
  });
});
