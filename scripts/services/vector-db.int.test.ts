import { DataType, MilvusClient } from '@zilliz/milvus2-sdk-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireServiceEnv } from './env.js';
import { axisVector, uniqueName } from './smoke-support.js';

/**
 * vector_db smoke suite with the official Node SDK: the SPEC 2.7 collection (VARCHAR primary key,
 * FLOAT_VECTOR 384, JSON, ARRAY of VARCHAR, nullable fields), an IVF_FLAT/COSINE index, load, insert with
 * nulls, upsert, delete by expression, query and search.
 */

const DIMENSION = 384;
const address = requireServiceEnv('VECTOR_DB_URI');
const collection = uniqueName('smoke_vector_db');

const nullable = { nullable: true } as const;

function row(elementId: string, axis: number, extra: Record<string, unknown>) {
  return {
    element_id: elementId,
    embeddings: axisVector(DIMENSION, axis),
    record_id: 'record-1',
    text: `text ${elementId}`,
    ...extra,
  };
}

describe('vector_db (Milvus API)', () => {
  const client = new MilvusClient({ address, timeout: 30_000, logLevel: 'warn' });

  beforeAll(async () => {
    await client.connectPromise;
    const created = await client.createCollection({
      collection_name: collection,
      fields: [
        { name: 'element_id', data_type: DataType.VarChar, is_primary_key: true, max_length: 200 },
        { name: 'embeddings', data_type: DataType.FloatVector, dim: DIMENSION },
        { name: 'record_id', data_type: DataType.VarChar, max_length: 200 },
        { name: 'text', data_type: DataType.VarChar, max_length: 65535 },
        { name: 'type', data_type: DataType.VarChar, max_length: 200, ...nullable },
        { name: 'coordinates_points', data_type: DataType.JSON, ...nullable },
        {
          name: 'languages',
          data_type: DataType.Array,
          element_type: DataType.VarChar,
          max_capacity: 10,
          max_length: 64,
          ...nullable,
        },
        { name: 'page_number', data_type: DataType.Int32, ...nullable },
      ],
    });
    expect(created.error_code).toBe('Success');
    const indexed = await client.createIndex({
      collection_name: collection,
      field_name: 'embeddings',
      index_type: 'IVF_FLAT',
      metric_type: 'COSINE',
      params: { nlist: 1024 },
    });
    expect(indexed.error_code).toBe('Success');
    expect((await client.loadCollection({ collection_name: collection })).error_code).toBe('Success');
  });

  afterAll(async () => {
    await client.dropCollection({ collection_name: collection });
    await client.closeConnection();
  });

  it('reports a version and a healthy server', async () => {
    const version = await client.getVersion();
    expect(version.version).toMatch(/\d+\.\d+/);
    expect((await client.checkHealth()).isHealthy).toBe(true);
  });

  it('keeps the declared schema, nullable fields included', async () => {
    const described = await client.describeCollection({ collection_name: collection });
    const fields = Object.fromEntries(described.schema.fields.map((field) => [field.name, field]));
    expect(fields.element_id?.is_primary_key).toBe(true);
    expect(fields.embeddings?.data_type).toBe('FloatVector');
    expect(fields.type?.nullable).toBe(true);
    expect(fields.languages?.data_type).toBe('Array');
    expect(fields.record_id?.nullable).toBe(false);
  });

  it('inserts with nulls, upserts, deletes by expression, and queries the result', async () => {
    const inserted = await client.insert({
      collection_name: collection,
      data: [
        row('a', 0, { type: 'Title', coordinates_points: [[1, 2]], languages: ['eng'], page_number: 1 }),
        row('b', 1, { type: null, coordinates_points: null, languages: null, page_number: null }),
        row('c', 2, {
          type: 'NarrativeText',
          coordinates_points: null,
          languages: ['fra', 'eng'],
          page_number: 2,
        }),
      ],
    });
    expect(inserted.status.error_code).toBe('Success');
    expect(Number(inserted.insert_cnt)).toBe(3);

    const upserted = await client.upsert({
      collection_name: collection,
      data: [row('c', 2, { type: null, coordinates_points: { x: 1 }, languages: ['deu'], page_number: 3 })],
    });
    expect(upserted.status.error_code).toBe('Success');

    const deleted = await client.delete({ collection_name: collection, filter: 'element_id in ["a"]' });
    expect(Number(deleted.delete_cnt)).toBe(1);

    const rows = await client.query({
      collection_name: collection,
      filter: 'record_id == "record-1"',
      output_fields: ['element_id', 'text', 'type', 'coordinates_points', 'languages', 'page_number'],
    });
    const byId = Object.fromEntries(rows.data.map((found) => [found.element_id, found]));
    expect(Object.keys(byId).sort()).toEqual(['b', 'c']);
    expect(byId.b).toMatchObject({
      type: null,
      coordinates_points: null,
      languages: null,
      page_number: null,
    });
    expect(byId.c).toMatchObject({
      type: null,
      coordinates_points: { x: 1 },
      languages: ['deu'],
      page_number: 3,
    });
  });

  it('searches by vector, nearest first', async () => {
    const result = await client.search({
      collection_name: collection,
      data: [axisVector(DIMENSION, 1)],
      limit: 2,
      output_fields: ['element_id'],
    });
    expect(result.status.error_code).toBe('Success');
    expect(result.results[0]).toMatchObject({ element_id: 'b' });
    expect(result.results[0]?.score).toBeGreaterThan(0.9);
  });
});
