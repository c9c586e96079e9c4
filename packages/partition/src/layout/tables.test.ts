import { describe, expect, it } from 'vitest';
import { detectTables, joinWrapped } from './tables.js';
import type { Rule, TextLine } from './types.js';

const line = (text: string, x0: number, y0: number, width = 40, bold = false): TextLine => ({
  text,
  x0,
  y0,
  x1: x0 + width,
  y1: y0 + 10,
  fontSize: 9,
  bold,
  origin: 'text_layer',
});
const h = (y: number, x0: number, x1: number): Rule => ({ x0, x1, y0: y - 0.4, y1: y + 0.4 });
const v = (x: number, y0: number, y1: number): Rule => ({ x0: x - 0.4, x1: x + 0.4, y0, y1 });

describe('ruled tables', () => {
  it('reads a grid, merging cells that no rule separates', () => {
    // 3 columns × 3 rows; the first row's first two cells are merged (no rule between them).
    const rules = [
      h(100, 0, 300),
      h(120, 0, 300),
      h(140, 0, 300),
      h(160, 0, 300),
      v(0, 100, 160),
      v(100, 120, 160),
      v(200, 100, 160),
      v(300, 100, 160),
    ];
    const lines = [
      line('Spanning head', 20, 105, 120, true),
      line('Third', 220, 105, 40, true),
      line('a', 10, 125),
      line('b', 110, 125),
      line('c', 210, 125),
      line('d', 10, 145),
      line('e', 110, 145),
      line('f', 210, 145),
    ];
    const { tables, consumed } = detectTables(lines, rules);
    expect(tables).toHaveLength(1);
    expect(tables[0]!.rows).toEqual([
      [{ text: 'Spanning head', colspan: 2 }, 'Third'],
      ['a', 'b', 'c'],
      ['d', 'e', 'f'],
    ]);
    expect(tables[0]!.headerRows).toBe(1);
    expect(consumed.size).toBe(8);
  });

  it('does not take a box around a paragraph for a table', () => {
    const rules = [h(100, 0, 300), h(200, 0, 300), v(0, 100, 200), v(300, 100, 200)];
    expect(detectTables([line('Just a framed note.', 10, 110, 200)], rules).tables).toEqual([]);
  });
});

describe('unruled tables', () => {
  it('finds columns from aligned gutters but not in two columns of prose', () => {
    const rows = [
      ['Name', 'Qty', 'Price'],
      ['Apples', '3', '1.20'],
      ['Pears', '12', '0.80'],
      ['Plums', '7', '2.10'],
    ];
    const lines = rows.flatMap((row, r) => row.map((cell, c) => line(cell, 72 + c * 120, 100 + r * 14)));
    const { tables } = detectTables(lines, []);
    expect(tables).toHaveLength(1);
    expect(tables[0]!.rows).toEqual(rows);
    const prose = [0, 1, 2, 3].flatMap((r) => [
      line('the quick brown fox jumps over the lazy dog again', 72, 100 + r * 14, 220),
      line('and the slow river flows into the wide blue sea', 320, 100 + r * 14, 220),
    ]);
    expect(detectTables(prose, []).tables).toEqual([]);
  });

  it('leaves two columns of short prose lines alone: their sentences run on from line to line', () => {
    const left = [
      'Visitors came early on Saturday and',
      'the market was busy until noon. Stall',
      'holders sold bread, cheese and',
      'early vegetables.',
    ];
    const right = [
      'In the afternoon the weather turned and',
      'most stalls closed before four. The',
      'organisers will add covered space for',
      'the autumn market.',
    ];
    const prose = left.flatMap((text, r) => [
      line(text, 72, 100 + r * 14, 200),
      line(right[r]!, 320, 100 + r * 14, 200),
    ]);
    expect(detectTables(prose, []).tables).toEqual([]);
  });

  it('finds a table in one page column without the prose of the other column that shares its rows', () => {
    const prose = [
      'The trick of in-batch negatives has been used in',
      'the full batch setting by several authors and more',
      'recently for mini-batch training of retrieval and',
      'ranking models. It has been shown to be an effective',
      'strategy for learning a dual encoder model that',
      'boosts the number of training examples we use.',
    ];
    const table = [
      ['Dataset', 'Train', 'Test'],
      ['Natural Questions', '79,168', '3,610'],
      ['TriviaQA', '78,785', '11,313'],
      ['SQuAD', '78,713', '10,570'],
    ];
    const lines = [
      // The prose sits half a row lower, so page-wide rows chain pairs of table rows through it.
      ...prose.map((text, r) => line(text, 72, 104.5 + r * 9, 210)),
      ...table.flatMap((row, r) =>
        row.map((cell, c) => line(cell, 310 + c * 70, 100 + r * 9, c === 0 ? 60 : 30)),
      ),
    ];
    const { tables } = detectTables(lines, []);
    expect(tables.map((found) => found.rows)).toEqual([table]);
  });

  it('spans a heading over its sub-columns and splits numbers of two columns drawn as one fragment', () => {
    // Columns: Dataset 0-60, Train = two columns at 100 and 160, Dev 220, Test 270 (numbers 30 wide).
    const lines = [
      line('Dataset', 0, 100, 40),
      line('Train', 120, 100, 50),
      line('Dev', 220, 100, 20),
      line('Test', 270, 100, 25),
      ...[
        ['Natural Questions', '79,168', '58,880', '8,757', '3,610'],
        ['TriviaQA', '78,785', '60,413', '8,837', '11,313'],
        ['SQuAD', '78,713', '70,096', '8,886', '10,570'],
      ].flatMap((row, r) =>
        row.map((cell, c) => line(cell, [0, 100, 160, 220, 270][c]!, 112 + r * 12, c === 0 ? 60 : 30)),
      ),
      // "361" and "2,032" set so close that they arrive as one fragment, 10 characters over 220-300.
      line('WebQuestions', 0, 148, 60),
      line('3,417', 100, 148, 30),
      line('2,474', 160, 148, 30),
      line('361 2,032', 220, 148, 80),
    ];
    const [table] = detectTables(lines, []).tables;
    expect(table?.rows).toEqual([
      ['Dataset', { text: 'Train', colspan: 2 }, 'Dev', 'Test'],
      ['Natural Questions', '79,168', '58,880', '8,757', '3,610'],
      ['TriviaQA', '78,785', '60,413', '8,837', '11,313'],
      ['SQuAD', '78,713', '70,096', '8,886', '10,570'],
      ['WebQuestions', '3,417', '2,474', '361', '2,032'],
    ]);
  });

  it('takes two wide page columns of references for columns, not a table', () => {
    const left = Array.from({ length: 10 }, (_, i) => `Author ${i}, B. Name. 2019.`);
    const right = Array.from({ length: 10 }, (_, i) => `Writer ${i} and C. Coauthor.`);
    const lines = left.flatMap((text, r) => [
      line(text, 72, 100 + r * 12, 210),
      line(right[r]!, 310, 100 + r * 12, 210),
    ]);
    expect(detectTables(lines, []).tables).toEqual([]);
  });

  it('still finds a long two-column table with a narrow key column', () => {
    const rows = Array.from({ length: 10 }, (_, i) => [`key${i}`, `Setting ${i} applies to every request`]);
    const lines = rows.flatMap((row, r) => [
      line(row[0]!, 72, 100 + r * 12, 40),
      line(row[1]!, 160, 100 + r * 12, 200),
    ]);
    expect(detectTables(lines, []).tables[0]?.rows).toEqual(rows);
  });

  it('still finds a table whose cells are lower-case words', () => {
    const rows = [
      ['option', 'kind', 'default value'],
      ['overlap', 'integer', 'none at all'],
      ['strategy', 'enum', 'auto unless set'],
      ['languages', 'list', 'detected per element'],
    ];
    const lines = rows.flatMap((row, r) => row.map((cell, c) => line(cell, 72 + c * 120, 100 + r * 14, 80)));
    expect(detectTables(lines, []).tables[0]?.rows).toEqual(rows);
  });
});

describe('joinWrapped', () => {
  it('rejoins a word hyphenated at the line end, keeps real hyphens and spaces', () => {
    expect(joinWrapped('infor-', 'mation')).toBe('information');
    expect(joinWrapped('a strong Lucene-', 'BM25 system')).toBe('a strong Lucene-BM25 system');
    expect(joinWrapped('COVID-', '19')).toBe('COVID-19');
    expect(joinWrapped('pages 3 -', 'Appendix')).toBe('pages 3 - Appendix');
    expect(joinWrapped('one', 'two')).toBe('one two');
    expect(joinWrapped('soft\u00ad', 'ware')).toBe('software');
  });
});
