import { describe, expect, it } from 'vitest';
import { elementsToJson, elementsToNdjson } from '../../elements/serialize.js';
import { partition } from '../../pipeline/partition.js';

const utf8 = (text: string) => new TextEncoder().encode(text);
const TEXT =
  'Quarterly Report\n\nSales grew by ten percent in the third quarter of the year.\n\n• First item of the list\n• Second item of the list\n';

describe('json partitioner: element JSON', () => {
  it('round-trips the JSON output of a partition unchanged', async () => {
    const original = await partition({ data: utf8(TEXT), filename: 'report.txt' });
    expect(original.some((element) => element.metadata.parent_id !== undefined)).toBe(true);
    const json = elementsToJson(original, 2);
    const again = await partition({ data: utf8(json), filename: 'report.txt.json' });
    expect(again).toEqual(original);
    expect(elementsToJson(again, 2)).toBe(json);
  });

  it('round-trips NDJSON output, embeddings and record ids included', async () => {
    const original = await partition({ data: utf8(TEXT), filename: 'report.txt' });
    original[0]!.embeddings = [0.25, -0.5];
    original[0]!.record_id = 'rec-1';
    const again = await partition({ data: utf8(elementsToNdjson(original)), filename: 'out.ndjson' });
    expect(again).toEqual(original);
  });

  it('keeps given ids, languages and parents even when options would change them', async () => {
    const given = [
      { type: 'Title', element_id: 'abc', text: 'Intro', metadata: { languages: ['deu'], page_number: 3 } },
      { type: 'NarrativeText', element_id: 'def', text: 'Body text here.', metadata: { parent_id: 'abc' } },
    ];
    const elements = await partition(
      { data: utf8(JSON.stringify(given)), filename: 'given.json' },
      { languages: ['eng'], starting_page_number: 10 },
    );
    expect(elements.map((element) => element.element_id)).toEqual(['abc', 'def']);
    expect(elements[0]!.metadata).toMatchObject({
      languages: ['deu'],
      page_number: 3,
      filename: 'given.json',
    });
    expect(elements[1]!.metadata.parent_id).toBe('abc');
    expect(elements[1]!.metadata.languages).toBeUndefined();
    expect(elements[0]!.metadata.filetype).toBe('application/json');
  });

  it('does not overwrite document facts the elements carry', async () => {
    const given = [
      { type: 'Title', element_id: 'x', text: 'T', metadata: { filename: 'a.docx', filetype: 'text/html' } },
    ];
    const [element] = await partition({ data: utf8(JSON.stringify(given)), filename: 'b.json' });
    expect(element!.metadata).toMatchObject({ filename: 'a.docx', filetype: 'text/html' });
  });

  it('gives fresh UUIDs with unique_element_ids and keeps parent links pointing at them', async () => {
    const given = [
      { type: 'Title', element_id: 'abc', text: 'Intro', metadata: {} },
      { type: 'NarrativeText', element_id: 'def', text: 'Body text.', metadata: { parent_id: 'abc' } },
    ];
    const elements = await partition(
      { data: utf8(JSON.stringify(given)), filename: 'given.json' },
      { unique_element_ids: true },
    );
    expect(elements[0]!.element_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(elements[1]!.metadata.parent_id).toBe(elements[0]!.element_id);
  });

  it('treats element-shaped items without ids as new elements of this document', async () => {
    const elements = await partition({
      data: utf8(
        '[{"type": "Title", "text": "Hello World"}, {"type": "NarrativeText", "text": "It is a fine day today."}]',
      ),
      filename: 'drafts.json',
    });
    expect(elements.map((element) => element.type)).toEqual(['Title', 'NarrativeText']);
    expect(elements[0]!.element_id).toMatch(/^[0-9a-f]{64}$/);
    expect(elements[1]!.metadata.parent_id).toBe(elements[0]!.element_id);
  });
});

describe('json partitioner: other JSON', () => {
  it('gives one UncategorizedText per object of a top-level array', async () => {
    const elements = await partition({
      data: utf8('[{"sku": "A-100"}, {"sku": "B-200", "tags": ["x"]}]'),
      filename: 'records.json',
    });
    expect(elements.map((element) => [element.type, element.text])).toEqual([
      ['UncategorizedText', '{\n  "sku": "A-100"\n}'],
      ['UncategorizedText', '{\n  "sku": "B-200",\n  "tags": [\n    "x"\n  ]\n}'],
    ]);
  });

  it.each([
    ['{"site": {"address": {"city": "Springfield"}}}', 1],
    ['[1, 2, 3]', 1],
    ['[{"a": 1}, 2]', 1],
    ['"hello"', 1],
    ['[]', 0],
    ['{}', 0],
    ['null', 0],
  ])('gives %s as %i element(s) of pretty-printed JSON', async (json, count) => {
    const elements = await partition({ data: utf8(json), filename: 'value.json' });
    expect(elements).toHaveLength(count);
    if (count) expect(elements[0]!.text).toBe(JSON.stringify(JSON.parse(json), null, 2));
  });

  it('treats an element-shaped array with invalid metadata as data', async () => {
    const elements = await partition({
      data: utf8('[{"type": "Title", "text": "x", "element_id": "1", "metadata": {"page_number": "two"}}]'),
      filename: 'odd.json',
    });
    expect(elements).toHaveLength(1);
    expect(elements[0]!.type).toBe('UncategorizedText');
  });

  it('gives one element per NDJSON line', async () => {
    const elements = await partition({ data: utf8('{"a": 1}\n\n{"b": "two"}\n'), filename: 'lines.ndjson' });
    expect(elements.map((element) => element.text)).toEqual(['{\n  "a": 1\n}', '{\n  "b": "two"\n}']);
    expect(elements[0]!.metadata.filetype).toBe('application/x-ndjson');
  });

  it('decodes UTF-16 JSON', async () => {
    const data = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('{"name": "Zoë"}', 'utf16le')]);
    const [element] = await partition({ data: new Uint8Array(data), filename: 'u16.json' });
    expect(element!.text).toContain('Zoë');
  });
});

describe('json partitioner: bad input', () => {
  it('refuses invalid JSON with corrupt_document', async () => {
    await expect(partition({ data: utf8('[{"hi": "there"}]]'), filename: 'bad.json' })).rejects.toMatchObject(
      {
        code: 'corrupt_document',
        message: expect.stringContaining('Invalid JSON'),
      },
    );
  });

  it('names the line of invalid NDJSON', async () => {
    await expect(
      partition({ data: utf8('{"a": 1}\n{"b": \n'), filename: 'bad.ndjson' }),
    ).rejects.toMatchObject({ code: 'corrupt_document', message: expect.stringContaining('line 2') });
  });

  it('gives no elements for an empty file', async () => {
    expect(await partition({ data: utf8('  \n'), filename: 'empty.json' })).toEqual([]);
  });
});
