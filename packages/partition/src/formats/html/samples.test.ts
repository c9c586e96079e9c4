import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Element } from '../../elements/element.js';
import { partition } from '../../pipeline/partition.js';

/** The shared sample corpus beside the repository; these suites skip where it is absent. */
const SHARED = join(import.meta.dirname, '../../../../../../shared/samples');
const DOCS = join(SHARED, 'unstructured-example-docs');
const EXPECTED = join(SHARED, 'unstructured-expected-output');

const htmlFiles = existsSync(DOCS) ? readdirSync(DOCS).filter((name) => /\.(html?|xhtml)$/i.test(name)) : [];

const read = async (name: string): Promise<Element[]> =>
  partition({ data: readFileSync(join(DOCS, name)), filename: name });

describe.skipIf(!existsSync(DOCS))('HTML sample documents', () => {
  it.each(htmlFiles)('%s partitions into typed elements', async (name) => {
    const elements = await read(name);
    expect(elements.length).toBeGreaterThan(0);
    for (const element of elements) {
      expect(element.metadata.filetype).toBe('text/html');
      if (element.type !== 'Image') expect(element.text.trim()).not.toBe('');
      if (element.type === 'Table') expect(element.metadata.text_as_html).toMatch(/^<table>.*<\/table>$/s);
    }
  });

  it('reads the UTF-16 copy of a page exactly like the UTF-8 one', async () => {
    const plain = await read('example-steelJIS-datasheet.html');
    // Its tables open with `<table></CENTER>`, which closes them early in the parser: rows are regrouped.
    expect(plain.filter((e) => e.type === 'Table')).toHaveLength(4);
    const utf16 = await read('example-steelJIS-datasheet-utf-16.html');
    expect(utf16.map((e) => [e.type, e.text])).toEqual(plain.map((e) => [e.type, e.text]));
  });

  it('finds the structure of fake-html.html', async () => {
    const elements = await read('fake-html.html');
    expect(elements.map((e) => [e.type, e.metadata.category_depth])).toEqual([
      ['Title', 0],
      ['Title', 1],
      ['NarrativeText', undefined],
      ['ListItem', 0],
      ['ListItem', 1],
      ['ListItem', 1],
      ['ListItem', 0],
      ['Title', 2],
      ['Table', undefined],
    ]);
  });

  it('reads header and footer page chrome, an image URL, and an embedded base64 image', async () => {
    const chrome = await read('fake-html-with-footer-and-header.html');
    expect(chrome.map((e) => e.type)).toEqual(['Header', 'Title', 'UncategorizedText', 'Footer']);
    const [, remote] = await read('fake-html-with-image-from-url.html');
    expect(remote).toMatchObject({ type: 'Image', text: 'Unstructured Logo' });
    expect(remote!.metadata.image_url).toMatch(/^https:\/\/avatars\.githubusercontent\.com\//);
    const embedded = await partition(
      { data: readFileSync(join(DOCS, 'fake-html-with-base64-image.html')), filename: 'x.html' },
      { extract_image_block_types: ['Image'] },
    );
    const image = embedded.find((e) => e.type === 'Image')!;
    expect(image.metadata.image_mime_type).toMatch(/^image\//);
    expect(Buffer.from(image.metadata.image_base64!, 'base64').length).toBeGreaterThan(100);
  });

  it('keeps the 10-K readable: no hidden XBRL facts, tables with structure, bullet rows as list items', async () => {
    const elements = await read('example-10k.html');
    const text = elements.map((e) => e.text).join('\n');
    expect(text).not.toContain('C_0000013156_20210101_20211231');
    expect(elements.filter((e) => e.type === 'Table').length).toBeGreaterThan(10);
    expect(elements.some((e) => e.type === 'ListItem' && e.text.startsWith('Findings of suitability'))).toBe(
      true,
    );
    expect(elements.some((e) => e.type === 'Title' && e.text === 'ITEM 1A. RISK FACTORS')).toBe(true);
  });

  it('reads a whole plain-text document published in one <pre> as paragraphs', async () => {
    const elements = await read('fake-html-pre.htm');
    expect(elements.filter((e) => e.type === 'NarrativeText').length).toBeGreaterThan(100);
    expect(elements.some((e) => e.type === 'CodeSnippet')).toBe(false);
  });
});

/**
 * The reference output for fake-html-cp1252.html. Types and order match. The texts of the first three
 * elements match; the reference's CodeSnippet text was decoded with the wrong code page ("trčs" for
 * "très", "nińo" for "niño"), while we decode windows-1252 correctly — a difference kept on purpose.
 */
const REFERENCE = join(EXPECTED, 'local-single-file-with-encoding/fake-html-cp1252.html.json');
describe.skipIf(!existsSync(REFERENCE))('reference output: fake-html-cp1252.html', () => {
  it('matches types, order and texts (except the reference mis-decoding)', async () => {
    const reference = JSON.parse(readFileSync(REFERENCE, 'utf8')) as Element[];
    const ours = await read('fake-html-cp1252.html');
    expect(ours.map((e) => e.type)).toEqual(reference.map((e) => e.type));
    expect(ours.slice(0, 3).map((e) => e.text)).toEqual(reference.slice(0, 3).map((e) => e.text));
    const code = ours[3]!.text;
    expect(reference[3]!.text).toContain('trčs chaud');
    expect(code).toContain('très chaud');
    expect(code).toContain('El niño comió paella');
    expect(code.split('\n')).toHaveLength(reference[3]!.text.split('\n').length);
  });
});
