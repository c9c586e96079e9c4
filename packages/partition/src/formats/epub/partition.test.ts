import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PartitionOptionsInput } from '../../options/partition-options.js';
import type { PartitionLimits } from '../../pipeline/limits.js';
import { partition } from '../../pipeline/partition.js';
import { makeEpub } from './test-support/make-epub.js';

const run = (data: Uint8Array, options: PartitionOptionsInput = {}, limits?: Partial<PartitionLimits>) =>
  partition({ data, filename: 'book.epub' }, options, { limits });

const book = () =>
  makeEpub(
    [
      {
        name: 'intro.xhtml',
        body: '<h1>Introduction</h1><p>This book explains how rivers shape the valleys around them.</p>',
      },
      {
        name: 'ch1.xhtml',
        body: `<h2>Chapter One</h2><p>Water moves stone over thousands of years, slowly and patiently.</p>
          <ul><li>Erosion</li><li>Deposition</li></ul>
          <table><tr><th>River</th><th>Length</th></tr><tr><td>Rhine</td><td>1233</td></tr></table>
          <p><img src="images/map.png" alt="Map of the Rhine"/></p>`,
      },
      { name: 'notes.xhtml', body: '<p>Notes written at the end of the book are here.</p>' },
    ],
    {
      language: 'en',
      spine: ['intro.xhtml', 'ch1.xhtml', 'notes.xhtml'],
      files: { 'OEBPS/images/map.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]) },
    },
  );

describe('EPUB partitioner', () => {
  it('reads chapters in spine order with page_number = chapter position', async () => {
    const elements = await run(book());
    expect(elements.map((e) => [e.type, e.text, e.metadata.page_number])).toEqual([
      ['Title', 'Introduction', 1],
      ['NarrativeText', 'This book explains how rivers shape the valleys around them.', 1],
      ['Title', 'Chapter One', 2],
      ['NarrativeText', 'Water moves stone over thousands of years, slowly and patiently.', 2],
      ['ListItem', 'Erosion', 2],
      ['ListItem', 'Deposition', 2],
      ['Table', 'River Length\nRhine 1233', 2],
      ['Image', 'Map of the Rhine', 2],
      ['NarrativeText', 'Notes written at the end of the book are here.', 3],
    ]);
    expect(elements[6]!.metadata.text_as_html).toBe(
      '<table><thead><tr><th>River</th><th>Length</th></tr></thead><tbody><tr><td>Rhine</td><td>1233</td></tr></tbody></table>',
    );
    expect(elements[0]!.metadata.languages).toEqual(['eng']);
    expect(elements[0]!.metadata.filetype).toBe('application/epub+zip');
    expect(elements[7]!.metadata.image_url).toBe('images/map.png');
  });

  it('separates chapters with PageBreaks when asked, and embeds book images when asked', async () => {
    const withBreaks = await run(book(), { include_page_breaks: true });
    expect(withBreaks.filter((e) => e.type === 'PageBreak')).toHaveLength(2);
    const withImages = await run(book(), { extract_image_block_types: ['Image'] });
    const image = withImages.find((e) => e.type === 'Image')!;
    expect(image.metadata.image_mime_type).toBe('image/png');
    expect(Buffer.from(image.metadata.image_base64!, 'base64')[1]).toBe(0x50);
  });

  it('follows the spine, not the manifest order, and finds the OPF without container.xml', async () => {
    const chapters = [
      { name: 'b.xhtml', body: '<p>Second in the manifest but first to read.</p>' },
      { name: 'a.xhtml', body: '<p>First in the manifest but second to read.</p>' },
    ];
    const reordered = makeEpub(chapters, { spine: ['a.xhtml', 'b.xhtml'] });
    expect((await run(reordered)).map((e) => e.text)).toEqual([
      'First in the manifest but second to read.',
      'Second in the manifest but first to read.',
    ]);
    const noContainer = makeEpub(chapters, { files: { 'META-INF/container.xml': '<container/>' } });
    expect(await run(noContainer)).toHaveLength(2);
  });

  it('refuses DRM-encrypted books', async () => {
    const encrypted = makeEpub([{ name: 'c.xhtml', body: '<p>x</p>' }], {
      files: {
        'META-INF/encryption.xml':
          '<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><EncryptedData xmlns="http://www.w3.org/2001/04/xmlenc#"><CipherData><CipherReference URI="OEBPS/c.xhtml"/></CipherData></EncryptedData></encryption>',
      },
    });
    await expect(run(encrypted)).rejects.toMatchObject({ code: 'encrypted_document' });
  });

  it('reports corrupt, truncated and empty archives as corrupt_document', async () => {
    const asEpub = { content_type: 'application/epub+zip' };
    const good = book();
    await expect(run(good.subarray(0, good.length - 30), asEpub)).rejects.toMatchObject({
      code: 'corrupt_document',
    });
    await expect(run(new TextEncoder().encode('PK\x03\x04 not really a zip'), asEpub)).rejects.toMatchObject({
      code: 'corrupt_document',
    });
    await expect(run(new Uint8Array(), asEpub)).rejects.toMatchObject({ code: 'corrupt_document' });
    const emptyPackage = makeEpub([], { files: { 'OEBPS/content.opf': '' } });
    await expect(run(emptyPackage, asEpub)).rejects.toMatchObject({ code: 'corrupt_document' });
    const garbage = new Uint8Array(4096).map((_, index) => (index * 7919) % 256);
    await expect(run(garbage, asEpub)).rejects.toMatchObject({ code: 'corrupt_document' });
  });

  it('stops zip bombs: a chapter beyond the decompression limit, and one lying about its size', async () => {
    const huge = makeEpub([{ name: 'big.xhtml', body: `<p>${'a'.repeat(4_000_000)}</p>` }]);
    await expect(run(huge, {}, { maxDecompressedBytes: 1_000_000 })).rejects.toMatchObject({
      code: 'limit_exceeded',
    });

    // Rewrite the declared size of the chapter in the central directory to 100 bytes.
    const lying = new Uint8Array(huge);
    const view = new DataView(lying.buffer);
    const name = new TextEncoder().encode('OEBPS/big.xhtml');
    for (let offset = 0; offset + 46 < lying.length; offset++) {
      if (view.getUint32(offset, true) !== 0x02014b50) continue;
      const nameLength = view.getUint16(offset + 28, true);
      const entryName = lying.subarray(offset + 46, offset + 46 + nameLength);
      if (nameLength === name.length && entryName.every((byte, index) => byte === name[index])) {
        view.setUint32(offset + 24, 100, true);
      }
    }
    await expect(run(lying)).rejects.toMatchObject({ code: 'limit_exceeded' });
  });

  it('reads a chapter whose bytes are not valid in its declared encoding', async () => {
    const bytes = new Uint8Array([
      ...new TextEncoder().encode('<?xml version="1.0" encoding="utf-8"?><html><body><p>Caf'),
      0xe9,
      ...new TextEncoder().encode(' au lait is served here every morning.</p></body></html>'),
    ]);
    const epub = makeEpub([{ name: 'c.xhtml', body: '' }], { files: { 'OEBPS/c.xhtml': bytes } });
    const [element] = await run(epub);
    expect(element!.text).toBe('Café au lait is served here every morning.');
  });

  it('survives malformed and deeply nested chapters', async () => {
    const broken = makeEpub([
      { name: 'a.xhtml', body: '<html><body><h1>Unclosed <p>text without end' },
      { name: 'b.xhtml', body: `${'<div>'.repeat(50_000)}deep${'</div>'.repeat(50_000)}` },
    ]);
    const texts = (await run(broken)).map((e) => e.text);
    expect(texts).toContain('deep');
    expect(texts.join(' ')).toContain('text without end');
  });
});

const SAMPLE = join(
  import.meta.dirname,
  '../../../../../../shared/samples/unstructured-example-docs/winter-sports.epub',
);
describe.skipIf(!existsSync(SAMPLE))('EPUB sample document', () => {
  it('reads winter-sports.epub chapter by chapter', async () => {
    const elements = await run(readFileSync(SAMPLE));
    expect(elements.length).toBeGreaterThan(500);
    expect(elements[0]).toMatchObject({ type: 'Image', text: 'Cover' });
    const pages = [...new Set(elements.map((e) => e.metadata.page_number))];
    expect(pages).toEqual([...pages].sort((a, b) => a! - b!));
    expect(pages.length).toBeGreaterThan(5);
    expect(elements.some((e) => e.type === 'Title' && e.text === 'CHAPTER I THE SUN-SEEKER')).toBe(true);
    expect(elements.some((e) => e.type === 'Table')).toBe(true);
  });
});
