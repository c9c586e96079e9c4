import type { Element } from '@docsvc/partition';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordDescriptor } from '../contract.js';
import { ConnectorError } from '../errors.js';
import { vectorDbDestinationOptions } from './config.js';
import { VectorDbDestination } from './destination.js';
import { adminClient, LiteServer, liteProgram, rowsOf } from './test-support/server.js';

/**
 * A server killed in the middle of a record's upload (SIGKILL, like a crash or a power-cut of the process),
 * then started again: the collection still holds the old version of the record complete, and running the
 * upload again ends with exactly the new version. Runs on a milvus-lite of its own (the one the services
 * script installed), so killing it disturbs no other test.
 */

const program = liteProgram();
const DIMENSION = 8;
const COLLECTION = 'crash_test';

function elements(texts: string[]): Element[] {
  return texts.map((text, index) => ({
    type: 'NarrativeText',
    element_id: `id-${text}`,
    text,
    metadata: { page_number: 1 },
    embeddings: Array.from({ length: DIMENSION }, (_, i) => (i === index % DIMENSION ? 1 : 0.1)),
  }));
}

/**
 * A client once the restarted server answers. gRPC keeps the connection to an address it saw fail in
 * back-off for a while (shared by every client of the process), so the first calls may fail fast.
 */
async function readyClient(uri: string) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const client = adminClient(uri);
    try {
      const answer = await client.hasCollection({ collection_name: COLLECTION });
      if (answer.status.error_code === 'Success') return client;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
    await client.closeConnection();
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

const record: RecordDescriptor = {
  identifier: '/docs/long.txt',
  version: '2',
  display_name: 'long.txt',
  rel_path: 'long.txt',
  data_source: {},
};

describe.skipIf(!program)('vector_db: server killed mid-upload', () => {
  const server = new LiteServer(program!);

  beforeAll(async () => {
    await server.start();
  }, 120_000);

  afterAll(async () => {
    await server.dispose();
  });

  function destination(batchSize: number) {
    return new VectorDbDestination(
      vectorDbDestinationOptions.parse({
        uri: server.uri,
        collection_name: COLLECTION,
        batch_size: batchSize,
        timeout_ms: 5000,
      }),
      { onWarning: () => {} },
    );
  }

  it('leaves the old version complete, and a re-run converges to the new one', async () => {
    const oldTexts = Array.from({ length: 300 }, (_, i) => `old ${i}`);
    // The new version keeps a third of the old elements and adds many.
    const newTexts = [
      ...oldTexts.filter((_, i) => i % 3 === 0),
      ...Array.from({ length: 4000 }, (_, i) => `new ${i}`),
    ];

    const first = destination(100);
    await first.createCollection({ dimension: DIMENSION });
    await first.precheck();
    await first.upload(first.stage(elements(oldTexts), record));
    const oldKeys = first.stage(elements(oldTexts), record).rows.map((row) => row.element_id);
    const newKeys = first.stage(elements(newTexts), record).rows.map((row) => row.element_id);
    await first.close();

    const interrupted = destination(20);
    await interrupted.precheck();
    const upload = interrupted.upload(interrupted.stage(elements(newTexts), record));
    upload.catch(() => {});
    // Kill the server once part of the new version is in.
    const watcher = adminClient(server.uri);
    for (;;) {
      const count = Number((await watcher.count({ collection_name: COLLECTION })).data);
      if (count >= oldTexts.length + 200) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await server.kill();
    await watcher.closeConnection();
    const failure = await upload.then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ConnectorError);
    await interrupted.close();

    await server.start();
    const reader = await readyClient(server.uri);
    await reader.loadCollection({ collection_name: COLLECTION });
    const afterCrash = new Set(
      (await rowsOf(reader, COLLECTION, 'record_id == "/docs/long.txt"')).map((r) => r.element_id),
    );
    // The old version is whole; part of the new one is there too.
    for (const key of oldKeys) expect(afterCrash.has(key)).toBe(true);
    expect(afterCrash.size).toBeGreaterThan(oldKeys.length);
    expect(afterCrash.size).toBeLessThan(oldKeys.length + newKeys.length);

    const rerun = destination(500);
    await rerun.precheck();
    const result = await rerun.upload(rerun.stage(elements(newTexts), record));
    expect(result.written).toBe(newKeys.length);
    expect(result.deleted).toBe(oldKeys.length - oldKeys.length / 3);
    const final = (await rowsOf(reader, COLLECTION, 'record_id == "/docs/long.txt"')).map(
      (r) => r.element_id,
    );
    expect(final.sort()).toEqual([...newKeys].sort());
    await rerun.close();
    await reader.closeConnection();
  }, 300_000);
});
