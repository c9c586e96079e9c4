import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { partition } from '../../pipeline/partition.js';
import { markdownToDrafts } from './partition.js';

const run = (data: Uint8Array | string, options = {}) =>
  partition(
    { data: typeof data === 'string' ? new TextEncoder().encode(data) : data, filename: 'doc.md' },
    options,
  );
const shape = (source: string) =>
  markdownToDrafts(source).map((d) => [d.type, d.text, d.metadata?.category_depth]);

describe('Markdown partitioner', () => {
  it('reads ATX and setext headings with depth, paragraphs and nested lists', () => {
    const source = `# Project Atlas

Atlas maps every road in the region. It was started in 2019 by volunteers.

Setup Guide
-----------

- Install the tools
  - Node 20 or later
  - A package manager
- Clone the repository

1. Build it
2. Run the tests
`;
    expect(shape(source)).toEqual([
      ['Title', 'Project Atlas', 0],
      [
        'NarrativeText',
        'Atlas maps every road in the region. It was started in 2019 by volunteers.',
        undefined,
      ],
      ['Title', 'Setup Guide', 1],
      ['ListItem', 'Install the tools', 0],
      ['ListItem', 'Node 20 or later', 1],
      ['ListItem', 'A package manager', 1],
      ['ListItem', 'Clone the repository', 0],
      ['ListItem', 'Build it', 0],
      ['ListItem', 'Run the tests', 0],
    ]);
  });

  it('reads GFM tables into Table elements with text_as_html', () => {
    const [table] = markdownToDrafts(
      '| Item | Price |\n|:-----|------:|\n| Apples | 1.99 |\n| Pears | 2.49 |\n',
    );
    expect(table).toMatchObject({ type: 'Table', text: 'Item Price\nApples 1.99\nPears 2.49' });
    expect(table!.metadata!.text_as_html).toBe(
      '<table><thead><tr><th>Item</th><th>Price</th></tr></thead><tbody><tr><td>Apples</td><td>1.99</td></tr><tr><td>Pears</td><td>2.49</td></tr></tbody></table>',
    );
  });

  it('reads fenced and indented code as CodeSnippet, keeping indentation', () => {
    expect(shape('```python\ndef f():\n    return 1\n```\n\n    indented = True\n')).toEqual([
      ['CodeSnippet', 'def f():\n    return 1', undefined],
      ['CodeSnippet', 'indented = True', undefined],
    ]);
  });

  it('reads block quotes, images and links', () => {
    const drafts = markdownToDrafts(
      '> Quoted words are still read as the text they are.\n\n![A red bicycle](img/bike.png)\n\nSee [the docs](https://docs.example.com) for **more** details.\n',
    );
    expect(drafts.map((d) => [d.type, d.text])).toEqual([
      ['NarrativeText', 'Quoted words are still read as the text they are.'],
      ['Image', 'A red bicycle'],
      ['NarrativeText', 'See the docs for more details.'],
    ]);
    expect(drafts[1]!.metadata!.image_url).toBe('img/bike.png');
    expect(drafts[2]!.metadata).toMatchObject({
      link_texts: ['the docs'],
      link_urls: ['https://docs.example.com'],
      links: [{ text: 'the docs', url: 'https://docs.example.com', start_index: 4 }],
      emphasized_text_contents: ['more'],
      emphasized_text_tags: ['b'],
    });
  });

  it('drops front matter and passes raw HTML through', () => {
    expect(
      shape(
        '---\ntitle: x\ntags: [a]\n---\n# Real Title\n\n<table><tr><td>a</td><td>b</td></tr><tr><td>1</td><td>2</td></tr></table>\n',
      ),
    ).toEqual([
      ['Title', 'Real Title', 0],
      ['Table', 'a b\n1 2', undefined],
    ]);
  });

  it('decodes legacy encodings and honours options.encoding', async () => {
    const latin = iconv.encode(
      '# Überschrift\n\nDie Größe der Fläche wurde gemessen und berichtet.\n',
      'windows-1252',
    );
    expect((await run(latin)).map((e) => e.text)).toEqual([
      'Überschrift',
      'Die Größe der Fläche wurde gemessen und berichtet.',
    ]);
    const koi8 = iconv.encode('# Привет мир\n', 'koi8-r');
    expect((await run(koi8, { encoding: 'koi8-r' }))[0]!.text).toBe('Привет мир');
    await expect(run('x', { encoding: 'nope-8' })).rejects.toMatchObject({ code: 'invalid_encoding' });
  });

  it('handles empty, binary and pathological input', async () => {
    expect(await run('')).toEqual([]);
    expect(await run('---\na: 1\n---\n')).toEqual([]);
    const garbage = new Uint8Array(2048).map((_, index) => (index * 211) % 256);
    await expect(run(garbage, { content_type: 'text/markdown' })).rejects.toMatchObject({
      code: 'corrupt_document',
    });
    // Text nested deeper than markdown-it's limit (100 levels) is dropped; what follows is read.
    const quotes = markdownToDrafts(`${'>'.repeat(20_000)} deep\n\nThe paragraph after it is here.`);
    expect(quotes.map((d) => d.text)).toEqual(['The paragraph after it is here.']);
    const lists = Array.from({ length: 3000 }, (_, index) => `${' '.repeat(index * 2)}- item ${index}`).join(
      '\n',
    );
    expect(markdownToDrafts(lists).length).toBeGreaterThan(0);
    expect(markdownToDrafts(`${'*'.repeat(20_000)}a${'*'.repeat(20_000)}`).length).toBeGreaterThan(0);
  });
});

const DOCS = join(import.meta.dirname, '../../../../../../shared/samples/unstructured-example-docs');
describe.skipIf(!existsSync(DOCS))('Markdown sample documents', () => {
  const read = (name: string) => run(readFileSync(join(DOCS, name)));

  it('reads README.md: heading, list, code block', async () => {
    const elements = await read('README.md');
    expect(elements.map((e) => e.type)).toEqual([
      'Title',
      'NarrativeText',
      'ListItem',
      'ListItem',
      'ListItem',
      'NarrativeText',
      'Title',
      'NarrativeText',
      'CodeSnippet',
      'NarrativeText',
    ]);
    expect(elements[8]!.text).toContain('curl -O');
  });

  it('reads simple-table.md and codeblock.md', async () => {
    const [table] = await read('simple-table.md');
    expect(table!.metadata.text_as_html).toContain('<th># In stock</th>');
    const code = await read('codeblock.md');
    expect(code.map((e) => e.type)).toEqual(['Title', 'CodeSnippet', 'Title', 'CodeSnippet', 'CodeSnippet']);
  });

  it('reads the umlaut files alike whatever their encoding', async () => {
    const utf8 = (await read('umlauts-utf8.md')).map((e) => e.text);
    expect(utf8).toContain('äöüß');
    expect((await read('umlauts-non-utf8.md')).map((e) => e.text)).toEqual(utf8);
  });
});
