import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Element } from './element.js';
import { ELEMENT_TYPES } from './element-types.js';
import {
  elementsFromBase64Gzip,
  elementsFromJson,
  elementsFromNdjson,
  elementsToBase64Gzip,
  elementsToCsv,
  elementsToJson,
  elementsToNdjson,
  flattenObject,
} from './serialize.js';

const sample: Element[] = [
  {
    type: 'Title',
    element_id: 'a'.repeat(64),
    text: 'Annual report',
    metadata: { filename: 'r.pdf', filetype: 'application/pdf', page_number: 1, languages: ['eng'] },
  },
  {
    type: 'Table',
    element_id: 'b'.repeat(64),
    text: 'a, b "c"\nd',
    metadata: {
      parent_id: 'a'.repeat(64),
      text_as_html: '<table><tr><td>a</td></tr></table>',
      coordinates: {
        points: [
          [0, 0],
          [0, 1],
          [1, 1],
          [1, 0],
        ],
        system: 'PointSpace',
        layout_width: 612,
        layout_height: 792,
      },
      data_source: { record_locator: { path: '/x/r.pdf' }, version: '1' },
    },
    embeddings: [0.1, -0.2],
  },
];

const arbitraryElement: fc.Arbitrary<Element> = fc.record({
  type: fc.constantFrom(...ELEMENT_TYPES),
  element_id: fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 64, maxLength: 64 }),
  text: fc.string(),
  metadata: fc.record(
    {
      filename: fc.string(),
      page_number: fc.integer({ min: 1, max: 10_000 }),
      languages: fc.array(fc.constantFrom('eng', 'fra', 'deu')),
      emphasized_text_contents: fc.array(fc.string()),
      is_continuation: fc.boolean(),
    },
    { requiredKeys: [] },
  ),
});

describe('serialisation', () => {
  it('writes keys in wire order', () => {
    const json = JSON.parse(elementsToJson(sample)) as Record<string, unknown>[];
    expect(Object.keys(json[1]!)).toEqual(['type', 'element_id', 'text', 'metadata', 'embeddings']);
    expect(Object.keys(json[0]!.metadata as object)).toEqual([
      'filename',
      'filetype',
      'page_number',
      'languages',
    ]);
  });

  it('round-trips JSON, NDJSON and base64-gzip for any elements', () => {
    fc.assert(
      fc.property(fc.array(arbitraryElement, { maxLength: 8 }), (elements) => {
        expect(elementsFromJson(elementsToJson(elements))).toEqual(elements);
        expect(elementsFromNdjson(elementsToNdjson(elements))).toEqual(elements);
        expect(elementsFromBase64Gzip(elementsToBase64Gzip(elements))).toEqual(elements);
      }),
    );
  });

  it('reads orig_elements written as zlib as well as gzip', async () => {
    const { deflateSync } = await import('node:zlib');
    const zlibForm = deflateSync(elementsToJson(sample)).toString('base64');
    expect(elementsFromBase64Gzip(zlibForm)).toEqual(sample);
    expect(() => elementsFromBase64Gzip('bm90IGNvbXByZXNzZWQ=')).toThrow(/gzip or zlib/);
  });

  it('keeps unknown metadata keys through a round trip', () => {
    const elements: Element[] = [
      { type: 'NarrativeText', element_id: 'x', text: 't', metadata: { custom_key: { a: 1 } } },
    ];
    expect(elementsFromJson(elementsToJson(elements))).toEqual(elements);
  });

  it('rejects JSON that is not a list of elements, naming the problem', () => {
    expect(() => elementsFromJson('{"a":1}')).toThrow(/Not a list of elements/);
    expect(() => elementsFromJson('[{"type":"Nope","element_id":"x","text":""}]')).toThrow(/0\.type/);
    expect(() => elementsFromJson('[')).toThrow(/Invalid JSON/);
  });

  it('writes CSV with flattened metadata and RFC 4180 quoting', () => {
    const csv = elementsToCsv(sample);
    const [header, first, second] = csv.split('\r\n');
    expect(header).toBe(
      'type,element_id,text,filename,filetype,page_number,languages,data_source_record_locator_path,data_source_version,coordinates_points,coordinates_system,coordinates_layout_width,coordinates_layout_height,parent_id,text_as_html,embeddings',
    );
    expect(first).toContain('Title,');
    expect(first).toContain('"[""eng""]"');
    expect(second).toContain('"a, b ""c""\nd"'.split('\n')[0]);
  });

  it('flattens nested objects with the given joiner and keeps arrays whole', () => {
    expect(flattenObject({ a: { b: { c: 1 } }, d: [1, 2], e: undefined }, '-')).toEqual({
      'a-b-c': 1,
      d: [1, 2],
    });
  });
});
