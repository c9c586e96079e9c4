import type { Element } from '@docsvc/partition';
import { describe, expect, it } from 'vitest';
import { ConnectorError } from '../errors.js';
import { embeddingDimension, flattenObject, recordKey, recordKeys, stageElementRows } from './index.js';

describe('flattenObject', () => {
  const metadata = {
    filetype: 'application/pdf',
    languages: ['eng', 'fra'],
    page_number: 3,
    is_extracted: true,
    coordinates: {
      points: [
        [1, 2],
        [3, 4],
      ],
      system: 'PixelSpace',
      layout_width: 100,
      layout_height: 200,
    },
    data_source: {
      url: 'file:///a.pdf',
      record_locator: { protocol: 'file', remote_file_path: '/a.pdf', nested: { deeper: 1 } },
      date_processed: undefined,
      permissions_data: null,
    },
    entities: { items: [{ entity: 'Ada', type: 'PERSON' }], relationships: [] },
    empty: {},
  };

  it('joins nested keys with the joiner and keeps arrays whole', () => {
    expect(flattenObject(metadata, '-')).toEqual({
      filetype: 'application/pdf',
      languages: ['eng', 'fra'],
      page_number: 3,
      is_extracted: true,
      'coordinates-points': [
        [1, 2],
        [3, 4],
      ],
      'coordinates-system': 'PixelSpace',
      'coordinates-layout_width': 100,
      'coordinates-layout_height': 200,
      'data_source-url': 'file:///a.pdf',
      'data_source-record_locator-protocol': 'file',
      'data_source-record_locator-remote_file_path': '/a.pdf',
      'data_source-record_locator-nested-deeper': 1,
      'entities-items': [{ entity: 'Ada', type: 'PERSON' }],
      'entities-relationships': [],
    });
  });

  it('uses the vector database joiner the same way', () => {
    const flat = flattenObject(metadata, '_');
    expect(flat.coordinates_points).toEqual(metadata.coordinates.points);
    expect(flat.data_source_record_locator_remote_file_path).toBe('/a.pdf');
    expect(Object.keys(flat).some((key) => key.includes('-'))).toBe(false);
  });

  it('leaves out null, undefined and empty objects', () => {
    expect(flattenObject({ a: null, b: undefined, c: {}, d: { e: null } }, '-')).toEqual({});
  });
});

describe('record keys', () => {
  it('differ for equal element ids in different records and are deterministic', () => {
    const a = recordKey('/docs/a.pdf', 'same-text-hash');
    const b = recordKey('/docs/b.pdf', 'same-text-hash');
    expect(a).not.toBe(b);
    expect(recordKey('/docs/a.pdf', 'same-text-hash')).toBe(a);
    expect(a).toMatch(/^[0-9a-f]{32}$/);
  });

  it('cannot be forged by moving characters between record id and element id', () => {
    expect(recordKey('ab', 'c')).not.toBe(recordKey('a', 'bc'));
  });

  it('give repeated element ids of one record distinct keys, the first one independent of the others', () => {
    const keys = recordKeys('r', ['x', 'y', 'x', 'x']);
    expect(new Set(keys).size).toBe(4);
    expect(keys[0]).toBe(recordKey('r', 'x'));
    expect(keys[1]).toBe(recordKey('r', 'y'));
    expect(recordKeys('r', ['x'])[0]).toBe(keys[0]);
  });
});

describe('stageElementRows', () => {
  const element = (id: string, text: string, extra: Partial<Element> = {}): Element => ({
    type: 'NarrativeText',
    element_id: id,
    text,
    metadata: {
      filename: 'a.pdf',
      coordinates: { points: [[0, 0]], system: 'PointSpace', layout_width: 1, layout_height: 1 },
    },
    ...extra,
  });

  it('gives one row per element with SPEC 2.7 fields and the record id', () => {
    const rows = stageElementRows(
      [element('e1', 'Hello', { embeddings: [0.1, 0.2] }), element('e2', 'World')],
      'record-1',
      { joiner: '-' },
    );
    expect(rows).toHaveLength(2);
    expect(rows[0]!.row).toEqual({
      element_id: 'e1',
      record_id: 'record-1',
      text: 'Hello',
      type: 'NarrativeText',
      embeddings: [0.1, 0.2],
      metadata: {
        filename: 'a.pdf',
        'coordinates-points': [[0, 0]],
        'coordinates-system': 'PointSpace',
        'coordinates-layout_width': 1,
        'coordinates-layout_height': 1,
      },
    });
    expect('embeddings' in rows[1]!.row).toBe(false);
    expect(rows[0]!.key).toBe(recordKey('record-1', 'e1'));
  });

  it('reports the embedding dimension and refuses mixed dimensions', () => {
    expect(embeddingDimension([{}, { embeddings: [1, 2, 3] }], 'engine_a')).toBe(3);
    expect(embeddingDimension([{}], 'engine_a')).toBeUndefined();
    expect(() => embeddingDimension([{ embeddings: [1] }, { embeddings: [1, 2] }], 'engine_a')).toThrow(
      ConnectorError,
    );
  });
});
