import { describe, expect, it } from 'vitest';
import { type BulkOperation, batchesOf, sortItems } from './bulk.js';

/**
 * How operations become `_bulk` requests and how an answer with errors is read item by item. Sending to
 * the real engines (per-item errors, connections cut mid-upload) is in the integration suites.
 */

const operation = (n: number, size = 1000): BulkOperation => ({
  action: 'index',
  id: `id-${n}`,
  document: { text: 'x'.repeat(size) },
  label: `element-${n}`,
});
const sizes = (batches: Iterable<{ operation: BulkOperation }[]>) =>
  [...batches].map((batch) => batch.length);

describe('batchesOf', () => {
  it('cuts at maxBytes, sends a larger single document alone, writes NDJSON action lines', () => {
    const operations = [operation(0), operation(1), operation(2, 5000), operation(3)];
    const batches = [...batchesOf(operations, 2_500, 1)];
    expect(sizes(batches)).toEqual([2, 1, 1]);
    expect(batches[0]![0]!.text).toBe(`{"index":{"_id":"id-0"}}\n{"text":"${'x'.repeat(1000)}"}\n`);
    const deletion = [...batchesOf([{ action: 'delete', id: 'a"b', label: 'x' }], 1_000, 1)];
    expect(deletion[0]![0]!.text).toBe('{"delete":{"_id":"a\\"b"}}\n');
  });

  it('splits a record across the parallel requests allowed, never below 256 KiB a request', () => {
    const many = Array.from({ length: 400 }, (_, n) => operation(n, 8_000));
    expect(sizes(batchesOf(many, 15_000_000, 4))).toHaveLength(4);
    expect(sizes(batchesOf(many, 15_000_000, 1))).toEqual([400]);
    const few = Array.from({ length: 40 }, (_, n) => operation(n, 8_000));
    expect(sizes(batchesOf(few, 15_000_000, 4))).toHaveLength(2);
    expect(sizes(batchesOf(many, 500_000, 4)).length).toBe(7);
  });
});

describe('sortItems', () => {
  const lines = [operation(0), operation(1), operation(2)].map((op) => ({ operation: op }));

  it('tells done, throttled and failed items apart, in request order', () => {
    const sorted = sortItems(lines, {
      errors: true,
      items: [
        { index: { status: 201 } },
        { index: { status: 429, error: { type: 'es_rejected_execution_exception', reason: 'queue full' } } },
        {
          index: {
            status: 400,
            error: { type: 'mapper_parsing_exception', reason: 'failed to parse [page_number]' },
          },
        },
      ],
    });
    expect(sorted.succeeded).toBe(1);
    expect(sorted.throttled.map((line) => line.operation.id)).toEqual(['id-1']);
    expect(sorted.failures).toEqual([
      {
        id: 'id-2',
        label: 'element-2',
        status: 400,
        reason: 'mapper_parsing_exception: failed to parse [page_number]',
      },
    ]);
  });

  it('counts deleting a document that is already gone as done', () => {
    const sorted = sortItems([{ operation: { action: 'delete', id: 'gone', label: 'x' } }], {
      errors: true,
      items: [{ delete: { status: 404 } }],
    });
    expect(sorted).toEqual({ succeeded: 1, throttled: [], failures: [] });
  });
});
