import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { partition } from '../../pipeline/partition.js';
import { htmlToDrafts } from '../html/html-to-drafts.js';
import { orgToHtml } from './to-html.js';

const drafts = (source: string) => htmlToDrafts(orgToHtml(source), { useDeclaredLanguage: false });
const shape = (source: string) => drafts(source).map((d) => [d.type, d.text, d.metadata?.category_depth]);
const run = (data: Uint8Array | string, options = {}) =>
  partition(
    { data: typeof data === 'string' ? new TextEncoder().encode(data) : data, filename: 'notes.org' },
    options,
  );

describe('Org: structure', () => {
  it('reads headlines by level without TODO keywords, priorities and tags; skips drawers and planning', () => {
    const source = `* TODO [#A] Launch plan                                  :work:urgent:
SCHEDULED: <2024-05-01 Wed>
:PROPERTIES:
:ID: 1234
:END:
The launch needs a date and an owner before the end of the month.
** DONE Budget
*** Details
`;
    expect(shape(source)).toEqual([
      ['Title', 'Launch plan', 0],
      ['NarrativeText', 'The launch needs a date and an owner before the end of the month.', undefined],
      ['Title', 'Budget', 1],
      ['Title', 'Details', 2],
    ]);
  });

  it('puts #+TITLE above the headlines', () => {
    expect(shape('#+TITLE: Field Notes\n#+AUTHOR: Ann\n* Day One\n')).toEqual([
      ['Title', 'Field Notes', 0],
      ['Title', 'Day One', 1],
    ]);
  });

  it('reads nested plain lists, continuation lines, check boxes and description items', () => {
    const source = `- [X] Buy paint for the
  back fence
- [ ] Call the plumber
  + about the kitchen sink
  + about the shower
- Colour :: a warm grey
1. First step
2) Second step
`;
    expect(shape(source)).toEqual([
      ['ListItem', 'Buy paint for the back fence', 0],
      ['ListItem', 'Call the plumber', 0],
      ['ListItem', 'about the kitchen sink', 1],
      ['ListItem', 'about the shower', 1],
      ['ListItem', 'Colour: a warm grey', 0],
      ['ListItem', 'First step', 0],
      ['ListItem', 'Second step', 0],
    ]);
  });

  it('reads source, example and fixed-width blocks as code; quotes, verses and comments as such', () => {
    const source = `#+BEGIN_SRC python
  def area(r):
      return 3.14 * r * r
#+END_SRC
#+begin_example
,* not a headline
#+end_example
: fixed width line
#+BEGIN_QUOTE
Quoted words are read as the text they are.
#+END_QUOTE
#+BEGIN_COMMENT
hidden
#+END_COMMENT
# a comment line
#+INCLUDE: "secrets.org"
`;
    expect(shape(source)).toEqual([
      ['CodeSnippet', 'def area(r):\n    return 3.14 * r * r', undefined],
      ['CodeSnippet', '* not a headline', undefined],
      ['CodeSnippet', 'fixed width line', undefined],
      ['NarrativeText', 'Quoted words are read as the text they are.', undefined],
    ]);
  });

  it('reads tables, with a header when a rule follows the first row, and captions', () => {
    const [caption, table] = drafts(`#+CAPTION: Prices per kilo
| Fruit | Price |
|-------+-------|
| Apple |  1.99 |
| Pear  |  2.49 |
`);
    expect(caption).toMatchObject({ type: 'FigureCaption', text: 'Prices per kilo' });
    expect(table!.metadata!.text_as_html).toBe(
      '<table><thead><tr><th>Fruit</th><th>Price</th></tr></thead><tbody><tr><td>Apple</td><td>1.99</td></tr><tr><td>Pear</td><td>2.49</td></tr></tbody></table>',
    );
  });

  it('keeps links, emphasis and images', () => {
    const [paragraph, image] = drafts(
      'See [[https://orgmode.org][the manual]] for *all* the /details/, or ~M-x org-mode~ [fn:1].\n\n[[file:img/map.png]]\n',
    );
    expect(paragraph!.text).toBe('See the manual for all the details, or M-x org-mode.');
    expect(paragraph!.metadata).toMatchObject({
      link_urls: ['https://orgmode.org'],
      links: [{ text: 'the manual', url: 'https://orgmode.org', start_index: 4 }],
      emphasized_text_contents: ['all', 'details'],
      emphasized_text_tags: ['b', 'i'],
    });
    expect(image).toMatchObject({ type: 'Image', metadata: { image_url: 'img/map.png' } });
  });
});

describe('Org: images', () => {
  it('uses a #+CAPTION as the text of the image it describes, once', () => {
    expect(
      drafts('#+CAPTION: The harbour at dawn\n[[./harbour.jpg]]\n').map((d) => [d.type, d.text]),
    ).toEqual([['Image', 'The harbour at dawn']]);
    expect(drafts('#+CAPTION: Figure 2\n[[./a.png][A boat]]\n').map((d) => [d.type, d.text])).toEqual([
      ['Image', 'A boat'],
      ['FigureCaption', 'Figure 2'],
    ]);
  });
});

describe('Org: bad input', () => {
  it('handles empty, binary, legacy-encoded, unterminated and deeply nested input', async () => {
    expect(await run('')).toEqual([]);
    await expect(run('text', { encoding: 'no-such-encoding' })).rejects.toMatchObject({
      code: 'invalid_encoding',
    });
    const invalidUtf8 = new Uint8Array([0x61, 0x62, 0xc3, 0x28, 0xa0, 0xa1, 0x20, 0x63]);
    expect((await run(invalidUtf8)).map((e) => e.text).join('')).toMatch(/^ab.*c$/);
    const garbage = new Uint8Array(2048).map((_, index) => (index * 61) % 256);
    await expect(run(garbage, { content_type: 'text/org' })).rejects.toMatchObject({
      code: 'corrupt_document',
    });
    const latin = iconv.encode('* Überblick\nDie Größe wurde gemessen.\n', 'windows-1252');
    expect((await run(latin)).map((e) => e.text)).toEqual(['Überblick', 'Die Größe wurde gemessen.']);
    expect(shape('#+BEGIN_SRC sh\necho unterminated\n')).toEqual([
      ['CodeSnippet', 'echo unterminated', undefined],
    ]);
    expect(shape(':LOGBOOK:\nnever closed\n').map(([, text]) => text)).toEqual([':LOGBOOK: never closed']);
    const deep = Array.from({ length: 3000 }, (_, index) => `${' '.repeat(index + 1)}- level ${index}`).join(
      '\n',
    );
    expect(drafts(deep).map((d) => d.text)).toContain('level 2999');
    expect(drafts(`${'*'.repeat(10_000)} stars`).length).toBe(1);
  });
});

const DOCS = join(import.meta.dirname, '../../../../../../shared/samples/unstructured-example-docs');
describe.skipIf(!existsSync(DOCS))('Org sample documents', () => {
  it('reads README.org like README.rst, and ignores the include in README-w-include.org', async () => {
    const read = async (name: string) =>
      (await partition({ data: readFileSync(join(DOCS, name)), filename: name })).map((e) => [
        e.type,
        e.text,
      ]);
    const org = await read('README.org');
    const rst = await read('README.rst');
    expect(org.map(([type]) => type)).toEqual(rst.map(([type]) => type));
    expect(await read('README-w-include.org')).toEqual(org);
  });
});
