import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { partition } from '../../pipeline/partition.js';
import { htmlToDrafts } from '../html/html-to-drafts.js';
import { rstToHtml } from './to-html.js';

const drafts = (source: string) => htmlToDrafts(rstToHtml(source), { useDeclaredLanguage: false });
const shape = (source: string) => drafts(source).map((d) => [d.type, d.text, d.metadata?.category_depth]);
const run = (data: Uint8Array | string, options = {}) =>
  partition(
    { data: typeof data === 'string' ? new TextEncoder().encode(data) : data, filename: 'doc.rst' },
    options,
  );

describe('RST: titles, paragraphs, lists', () => {
  it('assigns section levels in order of first appearance of each adornment style', () => {
    const source = `=========
 Handbook
=========

Intro
=====

The handbook explains how the team works together every day.

Details
-------

More Intro
==========
`;
    expect(shape(source)).toEqual([
      ['Title', 'Handbook', 0],
      ['Title', 'Intro', 1],
      ['NarrativeText', 'The handbook explains how the team works together every day.', undefined],
      ['Title', 'Details', 2],
      ['Title', 'More Intro', 1],
    ]);
  });

  it('reads bullet and enumerated lists nested by indentation, with wrapped item text', () => {
    const source = `- First item that wraps
  onto a second line
- Second item

  * Nested one
  * Nested two

#. Numbered
#. Also numbered
`;
    expect(shape(source)).toEqual([
      ['ListItem', 'First item that wraps onto a second line', 0],
      ['ListItem', 'Second item', 0],
      ['ListItem', 'Nested one', 1],
      ['ListItem', 'Nested two', 1],
      ['ListItem', 'Numbered', 0],
      ['ListItem', 'Also numbered', 0],
    ]);
  });

  it('reads literal blocks, code directives and doctests as CodeSnippet, skipping includes and comments', () => {
    const source = `.. include:: secrets.rst

Run this::

    make all
      && make test

.. code-block:: python
   :linenos:

   print("hi")

.. a comment that is not content

>>> 1 + 1
2
`;
    expect(shape(source)).toEqual([
      ['UncategorizedText', 'Run this:', undefined],
      ['CodeSnippet', 'make all\n  && make test', undefined],
      ['CodeSnippet', 'print("hi")', undefined],
      ['CodeSnippet', '>>> 1 + 1\n2', undefined],
    ]);
  });

  it('reads block quotes, definition and field lists, line blocks, admonitions and figures', () => {
    const source = `:Author: Jane Doe

Term
   The definition explains what the term means here.

    A quoted paragraph is still read as the text it is.

| Line one
| Line two

.. note::

   Remember to save your work before you leave.

.. figure:: img/plot.png
   :alt: A plot

   Figure 1. The plot.
`;
    expect(drafts(source).map((d) => [d.type, d.text])).toEqual([
      ['UncategorizedText', 'Author: Jane Doe'],
      ['Title', 'Term'].map((v, i) => (i === 0 ? expect.any(String) : v)),
      ['NarrativeText', 'The definition explains what the term means here.'],
      ['NarrativeText', 'A quoted paragraph is still read as the text it is.'],
      [expect.any(String), 'Line one Line two'],
      ['NarrativeText', 'Remember to save your work before you leave.'],
      ['Image', 'A plot'],
      ['FigureCaption', 'Figure 1. The plot.'],
    ]);
  });
});

describe('RST: directive bodies', () => {
  it('ends a directive body at an empty comment, so an indented quote after it is text', () => {
    const source =
      '.. code-block:: sh\n\n   make\n\n..\n\n    A quoted warning follows the code block here.\n';
    expect(shape(source)).toEqual([
      ['CodeSnippet', 'make', undefined],
      ['NarrativeText', 'A quoted warning follows the code block here.', undefined],
    ]);
  });
});

describe('RST: inline markup', () => {
  it('keeps links (inline and through targets) and emphasis', () => {
    const [paragraph] =
      drafts(`Read \`the guide <https://g.example>\`_ and \`Docs\`_ with **care** and *style*, not \`\`code\`\` [1]_.

.. _docs: https://docs.example
`);
    expect(paragraph!.text).toBe('Read the guide and Docs with care and style, not code.');
    expect(paragraph!.metadata).toMatchObject({
      link_urls: ['https://g.example', 'https://docs.example'],
      link_texts: ['the guide', 'Docs'],
      emphasized_text_contents: ['care', 'style'],
      emphasized_text_tags: ['b', 'i'],
    });
  });
});

describe('RST: tables', () => {
  it('reads grid tables with a header row and column spans', () => {
    const [table] = drafts(`+--------+-------+-------+
| Name   | Q1    | Q2    |
+========+=======+=======+
| North  | 10    | 12    |
+--------+-------+-------+
| Total  | 22 (both)     |
+--------+---------------+
`);
    expect(table!.type).toBe('Table');
    expect(table!.metadata!.text_as_html).toBe(
      '<table><thead><tr><th>Name</th><th>Q1</th><th>Q2</th></tr></thead><tbody><tr><td>North</td><td>10</td><td>12</td></tr><tr><td>Total</td><td colspan="2">22 (both)</td></tr></tbody></table>',
    );
  });

  it('reads simple tables, with and without a header, and continuation rows', () => {
    const [withHeader] = drafts(`=====  =====
Fruit  Price
=====  =====
Apple  1.99
Pear   2.49
       each
=====  =====
`);
    expect(withHeader!.metadata!.text_as_html).toBe(
      '<table><thead><tr><th>Fruit</th><th>Price</th></tr></thead><tbody><tr><td>Apple</td><td>1.99</td></tr><tr><td>Pear</td><td>2.49 each</td></tr></tbody></table>',
    );
    const [plain] = drafts(
      '===  ===\na    1\nb    2\n===  ===\n\nAfter the table comes a paragraph of text.\n',
    );
    expect(plain!.text).toBe('a 1\nb 2');
  });

  it('reads list-table and csv-table directives', () => {
    const [caption, listTable] = drafts(`.. list-table:: Prices
   :header-rows: 1

   * - Item
     - Price
   * - Apple
     - 1.99
`);
    expect(caption).toMatchObject({ type: 'FigureCaption', text: 'Prices' });
    expect(listTable!.metadata!.text_as_html).toBe(
      '<table><thead><tr><th>Item</th><th>Price</th></tr></thead><tbody><tr><td>Apple</td><td>1.99</td></tr></tbody></table>',
    );
    const [, csv] = drafts(`.. csv-table:: Stock
   :header: "Item", "Count"

   "Bolts, large", 10
   Nuts, 20
`);
    expect(csv!.metadata!.text_as_html).toContain('<td>Bolts, large</td><td>10</td>');
  });
});

describe('RST: bad input', () => {
  it('handles empty, binary, legacy-encoded and deeply indented input', async () => {
    expect(await run('')).toEqual([]);
    await expect(run('text', { encoding: 'no-such-encoding' })).rejects.toMatchObject({
      code: 'invalid_encoding',
    });
    const invalidUtf8 = new Uint8Array([0x61, 0x62, 0xc3, 0x28, 0xa0, 0xa1, 0x20, 0x63]);
    expect((await run(invalidUtf8)).map((e) => e.text).join('')).toMatch(/^ab.*c$/);
    const garbage = new Uint8Array(2048).map((_, index) => (index * 97) % 256);
    await expect(run(garbage, { content_type: 'text/x-rst' })).rejects.toMatchObject({
      code: 'corrupt_document',
    });
    const latin = iconv.encode('Überblick\n=========\n\nDie Größe wurde gemessen.\n', 'windows-1252');
    expect((await run(latin)).map((e) => e.text)).toEqual(['Überblick', 'Die Größe wurde gemessen.']);
    const deep = Array.from({ length: 1000 }, (_, index) => `${' '.repeat(index)}- level ${index}`).join(
      '\n',
    );
    expect(
      drafts(deep)
        .map((d) => d.text)
        .join(' '),
    ).toContain('level 999');
    expect(drafts('+---+\n| unterminated\n').length).toBeGreaterThanOrEqual(0);
    expect(drafts('=====  =====\nonly a header line').length).toBeGreaterThanOrEqual(0);
  });
});

const DOCS = join(import.meta.dirname, '../../../../../../shared/samples/unstructured-example-docs');
describe.skipIf(!existsSync(DOCS))('RST sample documents', () => {
  it('reads README.rst like README.md, and ignores the include in README-w-include.rst', async () => {
    const read = async (name: string) =>
      (await partition({ data: readFileSync(join(DOCS, name)), filename: name })).map((e) => [
        e.type,
        e.text,
      ]);
    const rst = await read('README.rst');
    expect(rst.map(([type]) => type)).toEqual([
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
    expect(await read('README-w-include.rst')).toEqual(rst);
  });
});
