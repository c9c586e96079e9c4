import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { partition } from '../../pipeline/partition.js';

const run = (data: Uint8Array | string, options = {}) =>
  partition(
    { data: typeof data === 'string' ? new TextEncoder().encode(data) : data, filename: 'doc.xml' },
    options,
  );
const texts = async (data: Uint8Array | string, options = {}) =>
  (await run(data, options)).map((e) => e.text);

const catalogue = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE catalogue>
<!-- generated -->
<catalogue>
  <book id="1"><title>Deep Water</title><summary>A diver explores a wreck that was lost a century ago.</summary></book>
  <book id="2"><title>Night Train</title><summary><![CDATA[Two strangers <meet> on a train.]]></summary></book>
  <note>Prices are <em>subject</em> to change.</note>
</catalogue>`;

describe('XML partitioner', () => {
  it('emits the text of each element holding text, in order, reading mixed content whole', async () => {
    expect(await texts(catalogue)).toEqual([
      'Deep Water',
      'A diver explores a wreck that was lost a century ago.',
      'Night Train',
      'Two strangers <meet> on a train.',
      'Prices are subject to change.',
    ]);
    const elements = await run(catalogue);
    expect(elements[1]!.type).toBe('NarrativeText');
    expect(elements[0]!.metadata.filetype).toBe('application/xml');
  });

  it('keeps the tags with xml_keep_tags, as one element', async () => {
    const elements = await run(catalogue, { xml_keep_tags: true });
    expect(elements).toHaveLength(1);
    expect(elements[0]!.text).toBe(catalogue.trim());
  });

  it('reads the encoding from the XML declaration and UTF-16 from its BOM', async () => {
    const latin1 = iconv.encode(
      '<?xml version="1.0" encoding="ISO-8859-1"?><r><v>Straße über Köln</v></r>',
      'latin1',
    );
    expect(await texts(latin1)).toEqual(['Straße über Köln']);
    const utf16 = Buffer.concat([Buffer.from([0xfe, 0xff]), iconv.encode('<r><v>Ærø Ø</v></r>', 'utf-16be')]);
    expect(await texts(utf16)).toEqual(['Ærø Ø']);
  });

  it('survives a declaration naming an unknown encoding and invalid UTF-8 bytes', async () => {
    const unknown = new TextEncoder().encode(
      '<?xml version="1.0" encoding="x-no-such"?><r><v>plain value</v></r>',
    );
    expect(await texts(unknown)).toEqual(['plain value']);
    const invalid = new Uint8Array([
      ...new TextEncoder().encode('<r><v>caf'),
      0xe9,
      0xff,
      ...new TextEncoder().encode('</v></r>'),
    ]);
    const [value] = await texts(invalid);
    expect(value!.startsWith('caf')).toBe(true);
    await expect(run('<r/>', { encoding: 'no-such-encoding' })).rejects.toMatchObject({
      code: 'invalid_encoding',
    });
  });

  it('reads truncated and mismatched markup as far as it goes', async () => {
    expect(
      await texts('<?xml version="1.0"?><r><a>first value</a><b>second</c><d>cut off in the mid'),
    ).toEqual(['first value', 'secondcut off in the mid']);
  });

  it('never expands DTD entities (no entity bomb)', async () => {
    const bomb = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]><lolz>&lol3;</lolz>`;
    const [element] = await run(bomb);
    expect(element!.text.length).toBeLessThan(20);
  });

  it('returns nothing for an empty file and refuses text or binary that is not XML', async () => {
    expect(await run('')).toEqual([]);
    expect(await run('\uFEFF  \n')).toEqual([]);
    await expect(
      run('just some words, no markup at all', { content_type: 'application/xml' }),
    ).rejects.toMatchObject({
      code: 'corrupt_document',
    });
    const garbage = new Uint8Array(2048).map((_, index) => (index * 131) % 256);
    await expect(run(garbage, { content_type: 'application/xml' })).rejects.toMatchObject({
      code: 'corrupt_document',
    });
  });

  it('survives 100 000 nested elements', async () => {
    const depth = 100_000;
    const xml = `${'<n>'.repeat(depth)}<leaf>bottom</leaf>${'</n>'.repeat(depth)}`;
    expect(await texts(xml)).toEqual(['bottom']);
  });
});

const DOCS = join(import.meta.dirname, '../../../../../../shared/samples/unstructured-example-docs');
describe.skipIf(!existsSync(DOCS))('XML sample documents', () => {
  it('reads factbook.xml and its UTF-16 copy alike', async () => {
    const plain = await texts(readFileSync(join(DOCS, 'factbook.xml')));
    expect(plain).toHaveLength(16);
    expect(plain.slice(0, 4)).toEqual(['United States', 'Washington, DC', 'Joe Biden', 'Baseball']);
    expect(plain).toContain('Trinidad & Tobado');
    expect(await texts(readFileSync(join(DOCS, 'factbook-utf-16.xml')))).toEqual(plain);
  });
});
