import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createVectorDbCollection, quoteFilterString } from '@docsvc/connectors';
import { MilvusClient } from '@zilliz/milvus2-sdk-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../test-support/run-cli.js';

/**
 * End to end: `service-ingest local --input-path … --embedding-provider local vector_db --uri … --collection-name …`
 * against the real test server. The bundled local embedding model gives 512-dimension vectors, so the
 * collection is created with dimension 512.
 */

const DIMENSION = 512;
const uri = process.env.VECTOR_DB_URI ?? '';
const collection = `ingest_e2e_${process.pid}_${Date.now().toString(36)}`;
let work: string;
let input: string;
let client: MilvusClient;

async function rows(filter: string, fields: string[]) {
  const answer = await client.query({
    collection_name: collection,
    filter,
    output_fields: fields,
    consistency_level: 'Strong',
    limit: 1000,
  });
  expect(answer.status.error_code).toBe('Success');
  return answer.data;
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'ingest-vector-db-'));
  input = join(work, 'in');
  await mkdir(input, { recursive: true });
  await writeFile(
    join(input, 'report.txt'),
    'Quarterly Report\n\nRevenue grew in every region this quarter.\n\nCosts stayed flat while hiring continued.\n\nThe board approved the new plan.\n',
  );
  await createVectorDbCollection(
    { uri, collection_name: collection },
    { dimension: DIMENSION, extended: true },
  );
  client = new MilvusClient({ address: uri, logLevel: 'error' });
  client.connectPromise.catch(() => {});
});

afterAll(async () => {
  await client?.dropCollection({ collection_name: collection }).catch(() => {});
  await client?.closeConnection();
  await rm(work, { recursive: true, force: true });
});

describe('service-ingest … vector_db', () => {
  const record = () => join(input, 'report.txt');

  it('partitions, embeds and writes every element with its metadata, searchable by its own vector', async () => {
    const result = await runCli([
      'local',
      '--input-path',
      input,
      '--work-dir',
      join(work, 'work'),
      '--embedding-provider',
      'local',
      'vector_db',
      '--uri',
      uri,
      '--collection-name',
      collection,
    ]);
    expect(result.stderr).not.toMatch(/failed: [1-9]/);
    expect(result.code).toBe(0);
    const written = await rows(`record_id == ${quoteFilterString(record())}`, [
      'element_id',
      'text',
      'type',
      'embeddings',
      'filename',
      'filetype',
      'languages',
      'data_source_record_locator_protocol',
      'data_source_record_locator_remote_file_path',
    ]);
    expect(written.map((row) => row.text)).toEqual(
      expect.arrayContaining([
        'Quarterly Report',
        'Revenue grew in every region this quarter.',
        'The board approved the new plan.',
      ]),
    );
    expect(written).toHaveLength(4);
    const title = written.find((row) => row.text === 'Quarterly Report')!;
    expect(title).toMatchObject({
      type: 'Title',
      filename: 'report.txt',
      filetype: 'text/plain',
      languages: ['eng'],
      data_source_record_locator_protocol: 'file',
      data_source_record_locator_remote_file_path: record(),
    });
    expect(String(title.element_id)).toMatch(/^[0-9a-f]{64}:[0-9a-f]{32}$/);
    expect(title.embeddings).toHaveLength(DIMENSION);

    const found = await client.search({
      collection_name: collection,
      data: [title.embeddings as number[]],
      limit: 1,
      output_fields: ['text'],
      consistency_level: 'Strong',
    });
    expect(found.results[0]).toMatchObject({ text: 'Quarterly Report' });
    expect(found.results[0]!.score).toBeCloseTo(1, 3);
  }, 300_000);

  it('replaces the record when the document shrinks, with the collection from the environment', async () => {
    await writeFile(record(), 'Quarterly Report\n\nThe board approved the new plan.\n');
    const result = await runCli(
      [
        'local',
        '--input-path',
        input,
        '--work-dir',
        join(work, 'work'),
        '--embedding-provider',
        'local',
        'vector_db',
      ],
      { VECTOR_DB_URI: uri, VECTOR_DB_COLLECTION_NAME: collection },
    );
    expect(result.code).toBe(0);
    const written = await rows(`record_id == ${quoteFilterString(record())}`, ['text']);
    expect(written.map((row) => row.text).sort()).toEqual([
      'Quarterly Report',
      'The board approved the new plan.',
    ]);
  }, 300_000);

  it('stops before any work when the collection does not exist (exit 2)', async () => {
    const result = await runCli([
      'local',
      '--input-path',
      input,
      '--work-dir',
      join(work, 'work-missing'),
      'vector_db',
      '--uri',
      uri,
      '--collection-name',
      'no_such_collection',
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/collection "no_such_collection" does not exist in database "default"/);
  }, 120_000);
});
