import type { Element } from '@docsvc/partition';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordDescriptor } from '../../contract.js';
import { ConnectorError } from '../../errors.js';
import { getConnector } from '../../registry.js';
import { recordKey } from '../../staging/index.js';
import type { SearchEngineDestination } from '../destination.js';
import { type EngineTransport, indexPath } from '../transport.js';
import { CuttingProxy } from './cutting-proxy.js';
import { deleteIndex, documentCount, documentIds, makeElements, uniqueIndex } from './fixtures.js';

/**
 * The destination behaviour both engines must show, run against the real servers: SPEC 2.7 documents and
 * mapping, record keys, record updates without orphans or loss, error reports, an upload cut off half-way.
 */
export interface EngineUnderTest {
  connector: 'engine_a' | 'engine_b';
  /** Connection options (hosts, credentials, TLS) of the tests' main route to the server. */
  connection: Record<string, unknown>;
  /** The server's plain-HTTP address and the options to reach it through another URL (a proxy). */
  direct: { host: string; port: number; connection: (url: string) => Record<string, unknown> };
  /** A transport with full rights, for seeding and inspecting. */
  admin: () => EngineTransport;
  /** The index's mapping (`mappings` and flat `settings`) as SPEC 2.7 says it, for `dimension`. */
  expectedIndex: (dimension: number) => {
    properties: Record<string, unknown>;
    embeddings: Record<string, unknown>;
    settings: Record<string, string>;
  };
}

export function record(identifier: string): RecordDescriptor {
  return {
    identifier,
    version: '1',
    display_name: identifier,
    rel_path: identifier.replace(/^\//, ''),
    data_source: { url: `file://${identifier}` },
  };
}

export function describeDestination(engine: EngineUnderTest): void {
  const created: string[] = [];
  let admin: EngineTransport;
  const destination = (index: string, extra: Record<string, unknown> = {}) => {
    const definition = getConnector(engine.connector);
    return definition.createDestination!({
      ...engine.connection,
      index_name: index,
      ...extra,
    }) as SearchEngineDestination;
  };
  const newIndex = (prefix: string) => {
    const index = uniqueIndex(prefix);
    created.push(index);
    return index;
  };
  const upload = async (
    index: string,
    elements: Element[],
    id: string,
    extra: Record<string, unknown> = {},
  ) => {
    const target = destination(index, extra);
    try {
      await target.precheck();
      return await target.upload(target.stage(elements, record(id)));
    } finally {
      await target.close();
    }
  };

  beforeAll(() => {
    admin = engine.admin();
  });
  afterAll(async () => {
    for (const index of created) await deleteIndex(admin, index);
    await admin.close();
  });

  describe(`${engine.connector} destination`, () => {
    it('creates a missing index with the SPEC 2.7 mapping and the given dimension', async () => {
      const index = newIndex('mapping');
      const target = destination(index);
      await target.precheck();
      await target.createTarget({ dimension: 8 });
      await target.close();
      const { body } = await admin.request<
        Record<string, { mappings: { properties: Record<string, unknown> } }>
      >({
        method: 'GET',
        path: indexPath(index, '_mapping'),
      });
      const expected = engine.expectedIndex(8);
      const { embeddings, ...properties } = body[index]!.mappings.properties;
      expect(properties).toEqual(expected.properties);
      // The engine adds defaults of its own to the vector field (engine_a: index_options); SPEC's must be there.
      expect(embeddings).toMatchObject(expected.embeddings);
      const { body: settings } = await admin.request<Record<string, { settings: Record<string, string> }>>({
        method: 'GET',
        path: indexPath(index, '_settings'),
        querystring: { flat_settings: true },
      });
      expect(settings[index]!.settings).toMatchObject(expected.settings);
    });

    it('creates the index on the first upload with the dimension of the data, one document per element', async () => {
      const index = newIndex('first-upload');
      const elements = makeElements(12, { dimension: 16 });
      const result = await upload(index, elements, '/docs/doc.pdf');
      expect(result).toEqual({ written: 12, deleted: 0 });
      expect(await documentCount(admin, index)).toBe(12);
      const { body: mapping } = await admin.request<
        Record<string, { mappings: { properties: Record<string, unknown> } }>
      >({ method: 'GET', path: indexPath(index, '_mapping') });
      expect(mapping[index]!.mappings.properties.embeddings).toMatchObject(
        engine.expectedIndex(16).embeddings,
      );
      const key = recordKey('/docs/doc.pdf', elements[3]!.element_id);
      const { body: document } = await admin.request<{ _source: Record<string, unknown> }>({
        method: 'GET',
        path: indexPath(index, '_doc', key),
      });
      expect(document._source).toEqual({
        element_id: 'text-3',
        record_id: '/docs/doc.pdf',
        text: 'text number 3',
        type: 'NarrativeText',
        embeddings: elements[3]!.embeddings,
        metadata: {
          filename: 'doc.pdf',
          filetype: 'application/pdf',
          languages: ['eng'],
          page_number: 1,
          is_extracted: true,
          'coordinates-points': [
            [3, 1],
            [3, 2],
            [4, 2],
            [4, 1],
          ],
          'coordinates-system': 'PointSpace',
          'coordinates-layout_width': 612,
          'coordinates-layout_height': 792,
          'data_source-url': 'file:///docs/doc.pdf',
          'data_source-record_locator-protocol': 'file',
          'data_source-record_locator-remote_file_path': '/docs/doc.pdf',
          'entities-items': [{ entity: 'Ada', type: 'PERSON' }],
          'entities-relationships': [{ from: 'Ada', relationship: 'wrote', to: 'notes' }],
        },
      });
      // The vector field is searchable: the nearest neighbour of element 3's vector is element 3.
      const knn =
        engine.connector === 'engine_a'
          ? { knn: { field: 'embeddings', query_vector: elements[3]!.embeddings, k: 1, num_candidates: 20 } }
          : { query: { knn: { embeddings: { vector: elements[3]!.embeddings, k: 1 } } } };
      const { body: found } = await admin.request<{ hits: { hits: { _id: string }[] } }>({
        method: 'POST',
        path: indexPath(index, '_search'),
        body: { size: 1, ...knn },
      });
      expect(found.hits.hits[0]?._id).toBe(key);
    });

    it('keeps equal texts of different records apart, and repeated texts inside one record', async () => {
      const index = newIndex('keys');
      const repeated = makeElements(3);
      repeated.push({ ...repeated[0]!, metadata: { ...repeated[0]!.metadata, page_number: 9 } });
      await upload(index, repeated, '/docs/a.pdf');
      await upload(index, makeElements(3), '/docs/b.pdf');
      expect(await documentCount(admin, index)).toBe(7);
      const again = await upload(index, repeated, '/docs/a.pdf');
      expect(again).toEqual({ written: 4, deleted: 0 });
      expect(await documentCount(admin, index)).toBe(7);
    });

    it('replaces a record that shrank, leaves no orphans, and is stable when re-run', async () => {
      const index = newIndex('shrink');
      // SPEC maps record_id as text: the phrase "/docs/a.txt" also occurs in "/archive/docs/a.txt",
      // whose documents must survive the update of the other record.
      await upload(index, makeElements(20, { prefix: 'v1', dimension: 4 }), '/docs/a.txt');
      await upload(index, makeElements(5, { prefix: 'other', dimension: 4 }), '/archive/docs/a.txt');
      const v2 = [
        ...makeElements(6, { prefix: 'v1', dimension: 4 }),
        ...makeElements(2, { prefix: 'v2', dimension: 4 }),
      ];
      expect(await upload(index, v2, '/docs/a.txt')).toEqual({ written: 8, deleted: 14 });
      const expectedIds = (elements: Element[], id: string) =>
        elements.map((e) => recordKey(id, e.element_id));
      expect(await documentIds(admin, index)).toEqual(
        [
          ...expectedIds(v2, '/docs/a.txt'),
          ...expectedIds(makeElements(5, { prefix: 'other' }), '/archive/docs/a.txt'),
        ].sort(),
      );
      expect(await upload(index, v2, '/docs/a.txt')).toEqual({ written: 8, deleted: 0 });
      expect(await documentCount(admin, index)).toBe(13);
      // A record with no elements any more loses all its documents.
      expect(await upload(index, [], '/docs/a.txt')).toEqual({ written: 0, deleted: 8 });
      expect(await documentCount(admin, index)).toBe(5);
    });

    it('finds the older documents of records larger than one search page', async () => {
      const index = newIndex('large-record');
      await upload(index, makeElements(10_050, { prefix: 'big' }), '/docs/big.txt', {
        batch_size_bytes: 2_000_000,
      });
      expect(await documentCount(admin, index)).toBe(10_050);
      expect(await upload(index, makeElements(10, { prefix: 'big' }), '/docs/big.txt')).toEqual({
        written: 10,
        deleted: 10_040,
      });
      expect(await documentCount(admin, index)).toBe(10);
    });

    it('uses an exact term lookup when the index maps record_id as a keyword', async () => {
      const index = newIndex('keyword-record-id');
      await admin.request({
        method: 'PUT',
        path: indexPath(index),
        body: {
          mappings: { properties: { record_id: { type: 'keyword' }, element_id: { type: 'keyword' } } },
        },
      });
      await upload(index, makeElements(4), 'Record One');
      await upload(index, makeElements(4), 'record one');
      expect(await upload(index, makeElements(1), 'Record One')).toEqual({ written: 1, deleted: 3 });
      expect(await documentCount(admin, index)).toBe(5);
    });

    it('reports elements the engine refuses with their id and reason, and keeps the earlier version', async () => {
      const index = newIndex('item-errors');
      await upload(index, makeElements(3), '/docs/r.txt');
      const elements = makeElements(3, { prefix: 'new' });
      elements[1]!.metadata.page_number = 'not a page' as unknown as number;
      elements[1]!.text = 'UNIQUE-PAYLOAD-MARKER';
      const error = await upload(index, elements, '/docs/r.txt').catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ConnectorError);
      expect((error as ConnectorError).stage).toBe('write');
      expect((error as Error).message).toMatch(/1 of 3 elements .* could not be written/);
      expect((error as Error).message).toContain('element new-1 (400');
      expect((error as Error).message).toMatch(/page_number/);
      expect((error as Error).message).not.toContain('UNIQUE-PAYLOAD-MARKER');
      // The earlier version is complete (its 3 documents) next to the 2 new documents that were accepted.
      expect(await documentCount(admin, index)).toBe(5);
    });

    it('refuses embeddings of another dimension than the index before writing anything', async () => {
      const index = newIndex('dimension');
      await upload(index, makeElements(2, { dimension: 8 }), '/docs/d.txt');
      const error = await upload(index, makeElements(2, { prefix: 'x', dimension: 4 }), '/docs/e.txt').catch(
        (caught: unknown) => caught,
      );
      expect(error).toMatchObject({ stage: 'schema' });
      expect((error as Error).message).toContain('8 dimensions');
      expect(await documentCount(admin, index)).toBe(2);
    });

    it('after an upload cut off half-way, the old version is complete, and a re-run completes the new one', async () => {
      const index = newIndex('cut');
      const proxy = await new CuttingProxy(engine.direct.host, engine.direct.port).start();
      try {
        const v1 = makeElements(300, { prefix: 'v1', dimension: 8 });
        const v2 = makeElements(400, { prefix: 'v2', dimension: 8 });
        const viaProxy = { ...engine.direct.connection(proxy.url), batch_size_bytes: 20_000, max_retries: 1 };
        expect(await upload(index, v1, '/docs/cut.txt', viaProxy)).toEqual({ written: 300, deleted: 0 });

        proxy.cutAfterBytes(200_000);
        const error = await upload(index, v2, '/docs/cut.txt', viaProxy).catch((caught: unknown) => caught);
        expect(proxy.isCut).toBe(true);
        expect(error).toBeInstanceOf(ConnectorError);
        expect((error as ConnectorError).stage).toBe('connect');
        const ids = new Set(await documentIds(admin, index));
        for (const element of v1) expect(ids.has(recordKey('/docs/cut.txt', element.element_id))).toBe(true);
        expect(ids.size).toBeGreaterThan(300);
        expect(ids.size).toBeLessThan(700);

        proxy.restore();
        expect(await upload(index, v2, '/docs/cut.txt', viaProxy)).toEqual({ written: 400, deleted: 300 });
        expect(await documentIds(admin, index)).toEqual(
          v2.map((element) => recordKey('/docs/cut.txt', element.element_id)).sort(),
        );
        expect(await upload(index, v2, '/docs/cut.txt', viaProxy)).toEqual({ written: 400, deleted: 0 });
        expect(await documentCount(admin, index)).toBe(400);
      } finally {
        await proxy.close();
      }
    });

    it('passes its precheck without the index, and writes nothing for an empty record then', async () => {
      const index = newIndex('absent');
      expect(await upload(index, [], '/docs/none.txt')).toEqual({ written: 0, deleted: 0 });
      const { statusCode } = await admin.request(
        { method: 'GET', path: indexPath(index) },
        { ignore: [404] },
      );
      expect(statusCode).toBe(404);
    });
  });
}
