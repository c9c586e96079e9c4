import type { Element } from '@docsvc/partition';
import { DataType, type MilvusClient } from '@zilliz/milvus2-sdk-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordDescriptor } from '../contract.js';
import { ConnectorError } from '../errors.js';
import { checkVectorDbConnection } from './check.js';
import { type VectorDbConfig, vectorDbDestinationOptions } from './config.js';
import { VectorDbDestination } from './destination.js';
import { quoteFilterString } from './filter.js';
import { type FieldInfo, readLayout } from './layout.js';
import { minimalFields, SPEC_INDEX, specFields } from './schema.js';
import { layoutOf } from './test-support/layout.js';
import { adminClient, rowsOf, uniqueCollection, vectorDbUri } from './test-support/server.js';

/**
 * The vector_db destination against the real test server (milvus-lite speaking Milvus gRPC). Every test
 * works on collections of its own.
 */

const DIMENSION = 8;
const created: string[] = [];
let admin: MilvusClient;

function config(collection: string, extra: Partial<VectorDbConfig> = {}): VectorDbConfig {
  return vectorDbDestinationOptions.parse({ uri: vectorDbUri(), collection_name: collection, ...extra });
}

function destination(collection: string, extra: Partial<VectorDbConfig> = {}, warnings: string[] = []) {
  return new VectorDbDestination(config(collection, extra), {
    onWarning: (message) => warnings.push(message),
  });
}

async function newCollection(prefix: string, options: { extended?: boolean; dynamic_fields?: boolean } = {}) {
  const name = uniqueCollection(prefix);
  created.push(name);
  const target = destination(name);
  try {
    await target.createCollection({ dimension: DIMENSION, ...options });
  } finally {
    await target.close();
  }
  return name;
}

function recordOf(identifier: string): RecordDescriptor {
  return {
    identifier,
    version: '1',
    display_name: identifier,
    rel_path: identifier,
    data_source: {
      url: `file://${identifier}`,
      record_locator: { protocol: 'file', remote_file_path: identifier },
    },
  };
}

/** A vector pointing mostly along `axis`, so the nearest neighbour of each is known. */
function vector(axis: number): number[] {
  return Array.from({ length: DIMENSION }, (_, i) => (i === axis % DIMENSION ? 1 : 0.01 * ((axis % 7) + 1)));
}

function elements(texts: string[], metadata: Element['metadata'] = {}): Element[] {
  return texts.map((text, index) => ({
    type: 'NarrativeText',
    element_id: `id-${text}`,
    text,
    metadata: { filename: 'doc.txt', page_number: 1, languages: ['eng'], ...metadata },
    embeddings: vector(index),
  }));
}

async function write(target: VectorDbDestination, items: Element[], record: RecordDescriptor) {
  return target.upload(target.stage(items, record));
}

async function rejection(promise: Promise<unknown>): Promise<ConnectorError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ConnectorError) return error;
    throw error;
  }
  throw new Error('expected a ConnectorError');
}

beforeAll(async () => {
  admin = adminClient();
  await admin.connectPromise;
});

afterAll(async () => {
  for (const name of created) await admin.dropCollection({ collection_name: name }).catch(() => {});
  await admin.closeConnection();
});

describe('createCollection: the SPEC 2.7 collection', () => {
  const comparable = (field: FieldInfo) => ({
    kind: field.kind,
    typeName: field.typeName,
    maxLength: field.maxLength,
    maxCapacity: field.maxCapacity,
    dim: field.dim,
    nullable: field.nullable,
    primary: field.primary,
    autoId: field.autoId,
  });

  it.each([false, true])(
    'creates the schema (extended=%s), its IVF_FLAT/COSINE index, and loads it',
    async (extended) => {
      const name = await newCollection('spec', { extended });
      const actual = await readLayout(admin, name, 'default');
      const expected = layoutOf(name, specFields({ dimension: DIMENSION, extended }));
      expect(actual.fields.map((f) => f.name)).toEqual(expected.fields.map((f) => f.name));
      for (const field of expected.fields) {
        const got = comparable(actual.byName.get(field.name)!);
        const want = comparable(field);
        // milvus-lite does not keep the max_length of an ARRAY's VARCHAR items (Milvus does): see docs.
        if (field.kind === 'array' && got.maxLength === undefined) delete want.maxLength;
        expect(got, field.name).toEqual(want);
      }
      expect(actual.dynamic).toBe(false);
      const index = await admin.describeIndex({ collection_name: name, field_name: 'embeddings' });
      const params = Object.fromEntries(index.index_descriptions[0]!.params.map((p) => [p.key, p.value]));
      expect(params.index_type).toBe(SPEC_INDEX.index_type);
      expect(params.metric_type).toBe(SPEC_INDEX.metric_type);
      expect(JSON.parse(params.params!)).toEqual(SPEC_INDEX.params);
      expect((await admin.getLoadState({ collection_name: name })).state).toBe('LoadStateLoaded');
    },
  );

  it('leaves a fitting collection as it is and refuses one of another dimension', async () => {
    const name = await newCollection('again');
    const target = destination(name);
    try {
      expect((await target.createCollection({ dimension: DIMENSION })).created).toBe(false);
      const error = await rejection(target.createCollection({ dimension: DIMENSION * 2 }));
      expect(error.stage).toBe('schema');
      expect(error.message).toMatch(
        /already exists and does not fit: "embeddings" has dimension 8 but the embeddings have 16/,
      );
    } finally {
      await target.close();
    }
  });
});

describe('precheck', () => {
  it('fails on a missing collection, a missing database and an unreachable server', async () => {
    const missing = destination(uniqueCollection('missing'));
    const error = await rejection(missing.precheck());
    expect(error.stage).toBe('not_found');
    expect(error.message).toMatch(/collection "missing_.*" does not exist in database "default"/);
    await missing.close();

    const noDatabase = destination('any', { db_name: 'no_such_db' });
    expect((await rejection(noDatabase.precheck())).message).toMatch(/database "no_such_db" does not exist/);
    await noDatabase.close();

    const unreachable = new VectorDbDestination(
      vectorDbDestinationOptions.parse({ uri: 'http://127.0.0.1:9', collection_name: 'x', timeout_ms: 3000 }),
    );
    expect((await rejection(unreachable.precheck())).stage).toBe('connect');
    await unreachable.close();
  });

  it('fails on missing required fields and a dimension other than the data’s', async () => {
    const name = uniqueCollection('partial');
    created.push(name);
    await admin.createCollection({
      collection_name: name,
      fields: minimalFields(DIMENSION).filter((f) => f.name !== 'record_id'),
    });
    await admin.createIndex({ collection_name: name, field_name: 'embeddings', ...SPEC_INDEX });
    await admin.loadCollection({ collection_name: name });
    const target = destination(name);
    const error = await rejection(target.precheck());
    expect(error.stage).toBe('schema');
    expect(error.message).toMatch(/the VARCHAR field "record_id" is missing/);
    await target.close();

    const good = destination(await newCollection('dimension'));
    await expect(good.precheck({ dimension: DIMENSION })).resolves.toBeUndefined();
    const wrong = await rejection(good.precheck({ dimension: 384 }));
    expect(wrong.message).toMatch(/"embeddings" has dimension 8 but the embeddings have 384/);
    await good.close();
  });

  it('fails when the collection is not loaded', async () => {
    const name = await newCollection('released');
    await admin.releaseCollection({ collection_name: name });
    const target = destination(name);
    const error = await rejection(target.precheck());
    expect(error.stage).toBe('schema');
    expect(error.message).toMatch(/is not loaded/);
    await target.close();
  });

  it('reports each stage in the connection test', async () => {
    const name = await newCollection('check');
    expect(await checkVectorDbConnection({ uri: vectorDbUri(), collection_name: name })).toEqual({
      ok: true,
      message: `collection "${name}" is ready: 5 fields, vectors of dimension 8, loaded`,
    });
    expect(await checkVectorDbConnection({ uri: vectorDbUri(), collection_name: 'nope_nope' })).toMatchObject(
      {
        ok: false,
        stage: 'not_found',
      },
    );
    expect(
      await checkVectorDbConnection({ uri: 'http://127.0.0.1:9', collection_name: name, timeout_ms: 3000 }),
    ).toMatchObject({
      ok: false,
      stage: 'connect',
    });
    expect(
      await checkVectorDbConnection({
        uri: 'http://no-such-host.invalid:19530',
        collection_name: name,
        timeout_ms: 3000,
      }),
    ).toMatchObject({ ok: false, stage: 'dns' });
    expect(await checkVectorDbConnection({ collection_name: name })).toMatchObject({
      ok: false,
      stage: 'config',
    });
    expect(
      await checkVectorDbConnection({ uri: vectorDbUri(), collection_name: name }, { dimension: 3 }),
    ).toMatchObject({
      ok: false,
      stage: 'schema',
    });
  });
});

describe('record updates', () => {
  it('writes a record, keeps counts stable on re-runs, and removes orphans when the document shrinks', async () => {
    const name = await newCollection('sync', { extended: true });
    const target = destination(name);
    await target.precheck();
    const record = recordOf('/docs/report.txt');
    const filter = `record_id == ${quoteFilterString(record.identifier)}`;
    const version1 = elements(['alpha', 'beta', 'gamma', 'delta', 'beta']);
    expect(await write(target, version1, record)).toEqual({ written: 5, deleted: 0 });
    const firstKeys = (await rowsOf(admin, name, filter)).map((row) => row.element_id).sort();
    expect(firstKeys).toHaveLength(5);

    expect(await write(target, version1, record)).toEqual({ written: 5, deleted: 0 });
    expect((await rowsOf(admin, name, filter)).map((row) => row.element_id).sort()).toEqual(firstKeys);

    const version2 = elements(['alpha', 'gamma', 'epsilon']);
    expect(await write(target, version2, record)).toEqual({ written: 3, deleted: 3 });
    const rows = await rowsOf(admin, name, filter, ['element_id', 'text', 'page_number', 'languages']);
    expect(rows.map((row) => row.text).sort()).toEqual(['alpha', 'epsilon', 'gamma']);
    expect(rows[0]).toMatchObject({ page_number: 1, languages: ['eng'] });

    expect(await write(target, [], record)).toEqual({ written: 0, deleted: 3 });
    expect(await rowsOf(admin, name, filter)).toEqual([]);
    await target.close();
  });

  it('keeps records apart whatever their ids hold, and equal texts in two records apart', async () => {
    const name = await newCollection('hostile');
    const target = destination(name);
    await target.precheck();
    const ids = [
      'a"b',
      'a\\"b',
      'x" or record_id != "',
      "it's",
      'line\nbreak',
      'tab\there',
      'C:\\dir\\file.txt',
      'emoji😀',
    ];
    for (const id of ids) await write(target, elements(['same text', `only ${id}`]), recordOf(id));
    // Shrinking each record touches only that record.
    for (const id of ids) await write(target, elements(['same text']), recordOf(id));
    for (const id of ids) {
      const rows = await rowsOf(admin, name, `record_id == ${quoteFilterString(id)}`, ['record_id', 'text']);
      expect(rows).toEqual([expect.objectContaining({ record_id: id, text: 'same text' })]);
    }
    expect((await admin.count({ collection_name: name })).data).toBe(ids.length);
    await target.close();
  });

  it('deletes the orphans of a large record in key ranges', async () => {
    const name = await newCollection('ranges');
    const target = new VectorDbDestination(config(name, { batch_size: 7 }), {
      onWarning: () => {},
      keysPerFilter: 4,
    });
    await target.precheck();
    const record = recordOf('big');
    const texts = Array.from({ length: 30 }, (_, i) => `t${i}`);
    await write(target, elements(texts), record);
    const kept = texts.filter((_, i) => i % 3 === 0);
    expect(await write(target, elements(kept), record)).toEqual({ written: 10, deleted: 20 });
    const rows = await rowsOf(admin, name, 'record_id == "big"', ['text']);
    expect(rows.map((row) => row.text).sort()).toEqual([...kept].sort());
    await target.close();
  });

  it('uploads records concurrently through one destination', async () => {
    const name = await newCollection('concurrent');
    const target = destination(name, { batch_size: 3 });
    await target.precheck();
    const records = Array.from({ length: 4 }, (_, i) => recordOf(`r${i}`));
    await Promise.all(
      records.map((record, i) => write(target, elements([`x${i}`, `y${i}`, `z${i}`, `w${i}`]), record)),
    );
    expect((await admin.count({ collection_name: name })).data).toBe(16);
    await target.close();
  });
});

describe('VARCHAR limits before any write (SPEC 7.2)', () => {
  it('fails an overflowing record without writing any of it, and leaves its previous version whole', async () => {
    const name = uniqueCollection('overflow');
    created.push(name);
    await admin.createCollection({
      collection_name: name,
      fields: [
        ...minimalFields(DIMENSION).filter((f) => f.name !== 'text'),
        { name: 'text', data_type: DataType.VarChar, max_length: 12 },
      ],
    });
    await admin.createIndex({ collection_name: name, field_name: 'embeddings', ...SPEC_INDEX });
    await admin.loadCollection({ collection_name: name });
    const target = destination(name);
    await target.precheck();
    const record = recordOf('doc');
    await write(target, elements(['short one', 'short two']), record);

    const error = await rejection(
      write(target, elements(['new short', 'this text is far too long']), record),
    );
    expect(error.message).toMatch(
      /element id-this text is far too long \(#2\): field "text": the value is 25 bytes long, more than the 12/,
    );
    const rows = await rowsOf(admin, name, 'record_id == "doc"', ['text']);
    expect(rows.map((row) => row.text).sort()).toEqual(['short one', 'short two']);

    const warnings: string[] = [];
    const truncating = destination(name, { varchar_overflow: 'truncate' }, warnings);
    await truncating.precheck();
    await write(truncating, elements(['new short', 'ééééééééééé and more']), record);
    const after = await rowsOf(admin, name, 'record_id == "doc"', ['text']);
    expect(after.map((row) => row.text).sort()).toEqual(['new short', 'éééééé']);
    expect(warnings.join('\n')).toMatch(/text: values cut to 12 bytes/);
    await target.close();
    await truncating.close();
  });
});

describe('search', () => {
  it('finds each written element by its own vector, with similarity ≈ 1', async () => {
    const name = await newCollection('search');
    const target = destination(name);
    await target.precheck();
    const items = elements(['first', 'second', 'third']);
    await write(target, items, recordOf('doc'));
    for (const item of items) {
      const found = await admin.search({
        collection_name: name,
        data: [item.embeddings!],
        limit: 1,
        output_fields: ['text', 'embeddings'],
        consistency_level: 'Strong',
      });
      expect(found.results[0]).toMatchObject({ text: item.text });
      expect(found.results[0]!.score).toBeCloseTo(1, 3);
      const stored = found.results[0]!.embeddings as number[];
      for (const [i, value] of stored.entries()) expect(value).toBeCloseTo(item.embeddings![i]!, 5);
    }
    await target.close();
  });
});

describe('dynamic fields', () => {
  it('stores metadata without a field in $meta', async () => {
    const name = await newCollection('dynamic', { dynamic_fields: true });
    const target = destination(name);
    await target.precheck();
    await write(target, elements(['text'], { parent_id: 'p1', category_depth: 2 }), recordOf('doc'));
    const [row] = await rowsOf(admin, name, 'record_id == "doc"', ['*']);
    // Milvus lifts dynamic keys to the top level of query results; milvus-lite returns them under $meta.
    const flat = { ...row, ...(row!.$meta as Record<string, unknown> | undefined) };
    expect(flat).toMatchObject({ text: 'text', parent_id: 'p1', category_depth: 2, filename: 'doc.txt' });
    await target.close();
  });
});

describe('direct upsert (wire.ts)', () => {
  it('stores exactly what the SDK’s own upsert stores, for every field type', async () => {
    const fields = [
      ...specFields({ dimension: DIMENSION, extended: true }),
      { name: 'flag', data_type: DataType.Bool, nullable: true },
      { name: 'tiny', data_type: DataType.Int8, nullable: true },
      { name: 'small', data_type: DataType.Int16, nullable: true },
      { name: 'big', data_type: DataType.Int64, nullable: true },
      { name: 'ratio', data_type: DataType.Float, nullable: true },
      { name: 'precise', data_type: DataType.Double, nullable: true },
      {
        name: 'scores',
        data_type: DataType.Array,
        element_type: DataType.Int32,
        max_capacity: 4,
        nullable: true,
      },
      { name: 'with_default', data_type: DataType.VarChar, max_length: 20, default_value: 'none' },
    ];
    const names = [uniqueCollection('direct'), uniqueCollection('sdk')];
    for (const name of names) {
      created.push(name);
      await admin.createCollection({ collection_name: name, fields, enable_dynamic_field: true });
      await admin.createIndex({ collection_name: name, field_name: 'embeddings', ...SPEC_INDEX });
      await admin.loadCollection({ collection_name: name });
    }
    const items = elements(['one', 'two', 'three']);
    items[0]!.metadata = {
      ...items[0]!.metadata,
      is_extracted: true,
      flag: false,
      tiny: -5,
      small: 300,
      big: 9_007_199_254_740_991,
      ratio: 0.5,
      precise: 1 / 3,
      scores: [1, 2, 3],
      with_default: 'given',
      coordinates: { points: [[1.5, 2.5]], system: 'PixelSpace', layout_width: 100, layout_height: 200 },
      entities: { items: [{ entity: 'A "quoted" name', type: 'PERSON' }], relationships: [] },
      parent_id: 'p0',
      emphasized_text_contents: ['é😀'],
    };
    items[1]!.metadata = { languages: [] };
    const read: Record<string, unknown>[][] = [];
    for (const [index, name] of names.entries()) {
      const target = new VectorDbDestination(config(name), { onWarning: () => {}, viaSdk: index === 1 });
      await target.precheck();
      await write(target, items, recordOf('doc'));
      const rows = await rowsOf(admin, name, 'record_id == "doc"', ['*']);
      read.push(rows.sort((a, b) => String(a.element_id).localeCompare(String(b.element_id))));
      await target.close();
    }
    expect(read[0]).toHaveLength(3);
    expect(read[0]).toEqual(read[1]);
    const first = read[0]!.find((row) => row.text === 'one')!;
    expect(first).toMatchObject({
      flag: false,
      tiny: -5,
      small: 300,
      scores: [1, 2, 3],
      with_default: 'given',
    });
    expect(read[0]!.find((row) => row.text === 'three')).toMatchObject({ flag: null, with_default: 'none' });
  });
});
