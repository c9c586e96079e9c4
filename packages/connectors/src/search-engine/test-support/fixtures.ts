import type { Element } from '@docsvc/partition';
import { type EngineTransport, indexPath } from '../transport.js';

/** A lowercase index name unique to this test process and moment (test files run in parallel). */
export function uniqueIndex(prefix: string): string {
  return `${prefix}-${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`.toLowerCase();
}

/** A deterministic vector of `dimension` values for element number `n`. */
export function vector(dimension: number, n: number): number[] {
  return Array.from(
    { length: dimension },
    (_, i) => Math.sin(n * 7.13 + i * 1.7) / 2 + (i === n % dimension ? 1 : 0),
  );
}

/** `count` elements shaped like partition output, with every SPEC 2.6 metadata group. */
export function makeElements(
  count: number,
  options: { prefix?: string; dimension?: number; start?: number } = {},
): Element[] {
  const { prefix = 'text', dimension, start = 0 } = options;
  return Array.from({ length: count }, (_, offset) => {
    const n = start + offset;
    const text = `${prefix} number ${n}`;
    const element: Element = {
      type: n % 5 === 0 ? 'Title' : 'NarrativeText',
      element_id: `${prefix}-${n}`,
      text,
      metadata: {
        filename: 'doc.pdf',
        filetype: 'application/pdf',
        languages: ['eng'],
        page_number: 1 + Math.floor(n / 10),
        is_extracted: true,
        coordinates: {
          points: [
            [n, 1],
            [n, 2],
            [n + 1, 2],
            [n + 1, 1],
          ],
          system: 'PointSpace',
          layout_width: 612,
          layout_height: 792,
        },
        data_source: {
          url: 'file:///docs/doc.pdf',
          record_locator: { protocol: 'file', remote_file_path: '/docs/doc.pdf' },
        },
        entities: {
          items: [{ entity: 'Ada', type: 'PERSON' }],
          relationships: [{ from: 'Ada', relationship: 'wrote', to: 'notes' }],
        },
      },
    };
    if (dimension !== undefined) element.embeddings = vector(dimension, n);
    return element;
  });
}

/** The ids of the documents matching `query` (at most 10 000, after a refresh), sorted. */
export async function documentIds(
  transport: EngineTransport,
  index: string,
  query: unknown = { match_all: {} },
): Promise<string[]> {
  await transport.request({ method: 'POST', path: indexPath(index, '_refresh') });
  const { body } = await transport.request<{
    hits: { total: { value: number }; hits: { _id: string }[] };
  }>({
    method: 'POST',
    path: indexPath(index, '_search'),
    body: { size: 10_000, query, _source: false, track_total_hits: true },
  });
  if (body.hits.total.value > 10_000) throw new Error('documentIds reads at most 10 000 documents');
  return body.hits.hits.map((hit) => hit._id).sort();
}

export async function documentCount(transport: EngineTransport, index: string): Promise<number> {
  await transport.request({ method: 'POST', path: indexPath(index, '_refresh') });
  const { body } = await transport.request<{ count: number }>({
    method: 'GET',
    path: indexPath(index, '_count'),
  });
  return body.count;
}

export async function deleteIndex(transport: EngineTransport, index: string): Promise<void> {
  await transport.request({ method: 'DELETE', path: indexPath(index) }, { ignore: [404] });
}

/** Index `count` documents made by `make` with ids `doc-<n>`, in bulk, refreshed. */
export async function seedDocuments(
  transport: EngineTransport,
  index: string,
  count: number,
  make: (n: number) => Record<string, unknown>,
): Promise<void> {
  for (let start = 0; start < count; start += 5_000) {
    const lines: string[] = [];
    for (let n = start; n < Math.min(count, start + 5_000); n++) {
      lines.push(JSON.stringify({ index: { _id: `doc-${n}` } }), JSON.stringify(make(n)));
    }
    const { body } = await transport.request<{ errors: boolean }>({
      method: 'POST',
      path: indexPath(index, '_bulk'),
      bulkBody: `${lines.join('\n')}\n`,
    });
    if (body.errors) throw new Error('seeding failed');
  }
  await transport.request({ method: 'POST', path: indexPath(index, '_refresh') });
}
