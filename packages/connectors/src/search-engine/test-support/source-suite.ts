import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordDescriptor, Source } from '../../contract.js';
import { getConnector } from '../../registry.js';
import type { SearchEngineDialect } from '../dialect.js';
import { retryPolicy } from '../retry.js';
import { scanIndex } from '../scan.js';
import { type EngineTransport, indexPath } from '../transport.js';
import type { EngineUnderTest } from './destination-suite.js';
import { deleteIndex, seedDocuments, uniqueIndex } from './fixtures.js';

/** The source behaviour both engines must show, against the real servers. */

const MOVIES = [
  {
    title: 'Alice in Wonderland',
    year: 1903,
    ethnicity: 'American',
    director: 'Cecil Hepworth',
    cast: null,
    genre: 'unknown',
    plot: 'Alice follows a large white rabbit down a "Rabbit-hole".',
  },
  {
    title: 'The Great Train Robbery',
    year: 1903,
    ethnicity: 'American',
    director: 'Edwin S. Porter',
    cast: ['Gilbert M. Anderson'],
    genre: 'western',
    plot: 'The film opens with two bandits breaking into a railroad telegraph office.',
  },
];

async function listAll(source: Source): Promise<RecordDescriptor[]> {
  const records: RecordDescriptor[] = [];
  for await (const record of source.list()) records.push(record);
  return records;
}

const text = (data: Uint8Array) => new TextDecoder().decode(data);

export function describeSource(engine: EngineUnderTest, dialect: SearchEngineDialect): void {
  const created: string[] = [];
  let admin: EngineTransport;
  let movies: string;
  let large: string;
  const source = (index: string, extra: Record<string, unknown> = {}) =>
    getConnector(engine.connector).createSource!({ ...engine.connection, index_name: index, ...extra });

  beforeAll(async () => {
    admin = engine.admin();
    movies = uniqueIndex('movies');
    large = uniqueIndex('large-source');
    created.push(movies, large);
    await seedDocuments(admin, movies, MOVIES.length, (n) => MOVIES[n]!);
    await seedDocuments(admin, large, 10_500, (n) => ({ n, title: `document ${n}`, body: `body of ${n}` }));
  });
  afterAll(async () => {
    for (const index of created) await deleteIndex(admin, index);
    await admin.close();
  });

  describe(`${engine.connector} source`, () => {
    it('turns each document into a record with locator, version and "field: value" text', async () => {
      const reader = source(movies, { fields: ['ethnicity', 'director', 'plot'] });
      await reader.precheck();
      const records = await listAll(reader);
      expect(records.map((r) => r.display_name).sort()).toEqual([`${movies}/doc-0`, `${movies}/doc-1`]);
      const first = records.find((r) => r.display_name.endsWith('doc-0'))!;
      const host = String((engine.connection.hosts as string[])[0]).replace(/\/$/, '');
      expect(first.identifier).toBe(`${host}/${movies}/_doc/doc-0`);
      expect(first.version).toBe('1');
      expect(first.rel_path).toBe(`${movies}-doc-0.txt`);
      expect(first.data_source).toEqual({
        url: `${host}/${movies}/_doc/doc-0`,
        version: '1',
        record_locator: { hosts: [host], index_name: movies, document_id: 'doc-0' },
      });
      const fetched = await reader.fetch(first);
      expect(fetched.content_type).toBe('text/plain');
      expect(fetched.filename).toBe(`${movies}-doc-0.txt`);
      expect(text(fetched.data)).toBe(
        'ethnicity: American\n\ndirector: Cecil Hepworth\n\nplot: Alice follows a large white rabbit down a "Rabbit-hole".',
      );
      await reader.close?.();
    });

    it('reads whole documents without fields, and re-reads a record it did not list', async () => {
      const reader = source(movies);
      const records = await listAll(reader);
      const second = records.find((r) => r.display_name.endsWith('doc-1'))!;
      expect(text((await reader.fetch(second)).data)).toBe(
        [
          'title: The Great Train Robbery',
          'year: 1903',
          'ethnicity: American',
          'director: Edwin S. Porter',
          'cast: Gilbert M. Anderson',
          'genre: western',
          'plot: The film opens with two bandits breaking into a railroad telegraph office.',
        ].join('\n\n'),
      );
      // A copy (as a resumed run would have) is read by id.
      const copy = JSON.parse(JSON.stringify(second)) as RecordDescriptor;
      expect(text((await reader.fetch(copy)).data)).toContain('director: Edwin S. Porter');
      await reader.close?.();
    });

    it('gives an updated document a new version', async () => {
      await admin.request({
        method: 'POST',
        path: indexPath(movies, '_update', 'doc-0'),
        querystring: { refresh: 'true' },
        body: { doc: { genre: 'fantasy' } },
      });
      const reader = source(movies);
      const records = await listAll(reader);
      expect(records.find((r) => r.display_name.endsWith('doc-0'))!.version).toBe('2');
      expect(records.find((r) => r.display_name.endsWith('doc-1'))!.version).toBe('1');
      await reader.close?.();
    });

    it('lists more than 10 000 documents, each once, page by page', async () => {
      const reader = source(large, { batch_size: 1_000, fields: ['n'] });
      await reader.precheck();
      const seen = new Set<string>();
      let count = 0;
      for await (const record of reader.list()) {
        count++;
        seen.add(record.display_name);
      }
      expect(count).toBe(10_500);
      expect(seen.size).toBe(10_500);
      await reader.close?.();
    });

    it('falls back to a scroll where a point in time is refused', async () => {
      const noPointInTime: SearchEngineDialect = {
        ...dialect,
        openPointInTime: async (transport, index, keepAlive, options) => {
          // An endpoint the engine does not have: it answers 4xx like an engine without the API would.
          await transport.request(
            {
              method: 'POST',
              path: indexPath(index, '_no_such_point_in_time_api'),
              querystring: { keep_alive: keepAlive },
            },
            options,
          );
          return 'unreachable';
        },
      };
      const ids = new Set<string>();
      for await (const page of scanIndex(admin, noPointInTime, {
        index: large,
        query: { match_all: {} },
        pageSize: 2_000,
        source: false,
        retry: retryPolicy(0),
      })) {
        for (const hit of page) ids.add(hit._id);
      }
      expect(ids.size).toBe(10_500);
    });

    it('lists an index of several shards completely', async () => {
      const index = uniqueIndex('shards');
      created.push(index);
      await admin.request({
        method: 'PUT',
        path: indexPath(index),
        body: { settings: { number_of_shards: 3, number_of_replicas: 0 } },
      });
      await seedDocuments(admin, index, 1_000, (n) => ({ n }));
      const reader = source(index, { batch_size: 70 });
      await reader.precheck();
      const names = (await listAll(reader)).map((r) => r.display_name);
      expect(names).toHaveLength(1_000);
      expect(new Set(names).size).toBe(1_000);
      await reader.close?.();
    });

    it('fails its precheck on a missing index with a not_found stage', async () => {
      const reader = source(uniqueIndex('missing'));
      await expect(reader.precheck()).rejects.toMatchObject({ stage: 'not_found' });
      await reader.close?.();
    });
  });
}
