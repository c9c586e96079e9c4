import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkSync } from './chunk.js';
import { parseTableHtml, splitTable } from './table-split.js';
import { el, origOf, table, wordsOf } from './test-support/elements.js';

const rows = [
  ['Name', 'Role'],
  ['Ada Lovelace', 'Analyst'],
  ['Grace Hopper', 'Admiral'],
  ['Alan Turing', 'Mathematician'],
];

describe('splitTable', () => {
  it('splits into pieces of whole rows, repeating the header in the HTML only', () => {
    const pieces = splitTable(table(rows, 1), 30);
    expect(pieces.map((p) => p.text)).toEqual([
      'Name Role\nAda Lovelace Analyst',
      'Grace Hopper Admiral',
      'Alan Turing Mathematician',
    ]);
    expect(pieces[1]!.html).toBe(
      '<table><thead><tr><th>Name</th><th>Role</th></tr></thead><tbody><tr><td>Grace Hopper</td><td>Admiral</td></tr></tbody></table>',
    );
    expect(pieces[0]!.html).toBe(
      '<table><thead><tr><th>Name</th><th>Role</th></tr></thead><tbody><tr><td>Ada Lovelace</td><td>Analyst</td></tr></tbody></table>',
    );
  });

  it('splits an over-long row between cells, keeping every column in place', () => {
    const wide = table([['alpha beta', 'gamma delta', 'epsilon']]);
    const pieces = splitTable(wide, 22);
    expect(pieces.map((p) => p.text)).toEqual(['alpha beta gamma delta', 'epsilon']);
    expect(pieces[1]!.html).toBe('<table><tbody><tr><td></td><td></td><td>epsilon</td></tr></tbody></table>');
  });

  it('splits an over-long cell like text', () => {
    const pieces = splitTable(table([['One sentence here. Another one there.']]), 20);
    expect(pieces.map((p) => p.text)).toEqual(['One sentence here.', 'Another one there.']);
  });

  it('splits a table without text_as_html by lines and gives its pieces no html', () => {
    const bare = el('Table', 'row one\nrow two\nrow three');
    const pieces = splitTable(bare, 16);
    expect(pieces).toEqual([
      { text: 'row one\nrow two', html: undefined },
      { text: 'row three', html: undefined },
    ]);
  });

  it('cuts a rowspan at the end of a piece', () => {
    const html =
      '<table><tr><td rowspan="3">span</td><td>one</td></tr><tr><td>two</td></tr><tr><td>three</td></tr></table>';
    const pieces = splitTable(el('Table', 'span one\ntwo\nthree', { text_as_html: html }), 12);
    expect(pieces[0]!.html).toBe(
      '<table><tbody><tr><td rowspan="2">span</td><td>one</td></tr><tr><td>two</td></tr></tbody></table>',
    );
  });
});

describe('parseTableHtml', () => {
  it('reads unclosed cells, entities, th header rows and nested tables', () => {
    const parsed = parseTableHtml(
      '<table><tr><th>A<th>B</tr><tr><td>x &amp; y<td>in <table><tr><td>inner</td></tr></table> cell</table>',
    );
    expect(parsed.map((r) => [r.header, r.cells.map((c) => c.text)])).toEqual([
      [true, ['A', 'B']],
      [false, ['x & y', 'in inner cell']],
    ]);
  });
});

describe('tables in chunk()', () => {
  it('an oversized table becomes TableChunks with is_continuation and the whole table in orig_elements', () => {
    const big = table(rows, 1, {
      page_number: 3,
      coordinates: { points: [], system: 'PixelSpace', layout_width: 1, layout_height: 1 },
    });
    const chunks = chunkSync([big], { chunking_strategy: 'by_title', max_characters: 30 });
    expect(chunks.map((c) => c.type)).toEqual(['TableChunk', 'TableChunk', 'TableChunk']);
    expect(chunks.map((c) => c.metadata.is_continuation)).toEqual([undefined, true, true]);
    for (const c of chunks) {
      expect(c.metadata.page_number).toBe(3);
      expect(c.metadata.coordinates).toBeUndefined();
      expect(origOf(c)).toEqual([big]);
    }
  });

  it('property: table pieces fit, hold valid HTML of whole rows, and keep every word in order', () => {
    const cell = fc.stringMatching(/^[a-z]{1,8}( [a-z]{1,8}){0,6}$/);
    fc.assert(
      fc.property(
        fc.array(fc.array(cell, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 15 }),
        fc.integer({ min: 0, max: 1 }),
        fc.integer({ min: 10, max: 120 }),
        (tableRows, header, max) => {
          const t = table(tableRows, header);
          const pieces = splitTable(t, max);
          const headerWords = header ? wordsOf(tableRows[0]!.join(' ')) : [];
          const words: string[] = [];
          for (const piece of pieces) {
            expect(piece.text.length).toBeLessThanOrEqual(max);
            const reparsed = parseTableHtml(piece.html!);
            const bodyText = reparsed
              .filter((r) => !r.header)
              .map((r) => r.text)
              .join(' ');
            // -- the HTML holds exactly the piece's rows (plus the repeated header) --
            const pieceWords = wordsOf(piece.text);
            const htmlWords = wordsOf(bodyText);
            expect(pieceWords.slice(pieceWords.length - htmlWords.length)).toEqual(htmlWords);
            words.push(...pieceWords);
          }
          expect(words).toEqual(wordsOf(t.text));
          if (header && pieces.length > 1 && headerWords.join(' ').length <= max) {
            for (const piece of pieces) expect(piece.html!.startsWith('<table><thead>')).toBe(true);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
