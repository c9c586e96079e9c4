import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { partition } from '../../pipeline/partition.js';
import { MAX_TABLE_CELLS, parseRows } from './partition.js';
import { countHeaderRows, sniffDelimiter } from './sniff.js';

const utf8 = (text: string) => new TextEncoder().encode(text);

async function table(data: Uint8Array, filename = 'data.csv', options = {}) {
  const elements = await partition({ data, filename }, options);
  expect(elements).toHaveLength(1);
  const [element] = elements;
  expect(element!.type).toBe('Table');
  return element!;
}

describe('csv partitioner', () => {
  it('makes one Table with the header row as th and the cells as text', async () => {
    const element = await table(utf8('Name,Age,City\nAlice,34,Paris\nBob,27,Oslo\n'));
    expect(element.metadata.text_as_html).toBe(
      '<table><thead><tr><th>Name</th><th>Age</th><th>City</th></tr></thead>' +
        '<tbody><tr><td>Alice</td><td>34</td><td>Paris</td></tr><tr><td>Bob</td><td>27</td><td>Oslo</td></tr></tbody></table>',
    );
    expect(element.text).toBe('Name Age City\nAlice 34 Paris\nBob 27 Oslo');
    expect(element.metadata.filetype).toBe('text/csv');
    expect(element.metadata.filename).toBe('data.csv');
  });

  it('keeps delimiters, escaped quotes and line breaks inside quoted fields', async () => {
    const element = await table(utf8('id,quote\n1,"Hello, ""world"""\n2,"two\nlines"\n'));
    expect(element.metadata.text_as_html).toContain('<td>Hello, &quot;world&quot;</td>');
    expect(element.metadata.text_as_html).toContain('<td>two lines</td>');
  });

  it.each([
    ['semicolon', 'Year;Month;Revenue\n2022;1;123,5\n2023;2;143,1\n', '<td>123,5</td>'],
    ['tab', 'a\tb\tc\n1\t2\t3\n4\t5\t6\n', '<td>5</td>'],
    ['pipe', 'col1|col2|col3\r\na|b|c\r\nd|e|f', '<td>e</td>'],
  ])('sniffs a %s delimiter', async (_name, text, cell) => {
    const element = await table(utf8(text));
    expect(element.metadata.text_as_html).toContain(cell);
  });

  it('treats text that no delimiter splits consistently as one column', async () => {
    const text =
      'Lorem, ipsum\ndolor sit\namet consectetur\nadipiscing, elit\ntempor; incididunt\nut labore\n';
    const element = await table(utf8(text));
    expect(element.metadata.text_as_html).toContain('<td>adipiscing, elit</td>');
    expect(element.metadata.text_as_html).not.toContain('<td> elit</td>');
  });

  it('prefers the semicolon when commas appear inside semicolon-separated cells', () => {
    const text = 'Lorem, ipsum; dolor sit; amet\nconsectetur; adipiscing; elit\nsed, do; eiusmod; tempor\n';
    expect(sniffDelimiter(text)).toBe(';');
  });

  it('decodes UTF-16 with a BOM, UTF-8 with a BOM and windows-1252', async () => {
    const csv = 'Team,City,Cups\nCanadiens,Montréal,24\n';
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(csv, 'utf16le')]);
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(csv, 'utf8')]);
    const cp1252 = iconv.encode(csv, 'windows-1252');
    for (const data of [utf16, bom, cp1252]) {
      const element = await table(new Uint8Array(data));
      expect(element.text).toBe('Team City Cups\nCanadiens Montréal 24');
    }
  });

  it('honours an explicit encoding', async () => {
    const data = iconv.encode('a,b\nü,ß\n', 'iso-8859-1');
    const element = await table(new Uint8Array(data), 'x.csv', { encoding: 'iso-8859-1' });
    expect(element.text).toBe('a b\nü ß');
  });

  it('keeps ragged rows as they are and drops a trailing empty column', async () => {
    const element = await table(utf8('Year;Month;Revenue;\n2022;1;123;\n2023;2\n'));
    expect(element.metadata.text_as_html).toBe(
      '<table><thead><tr><th>Year</th><th>Month</th><th>Revenue</th></tr></thead>' +
        '<tbody><tr><td>2022</td><td>1</td><td>123</td></tr><tr><td>2023</td><td>2</td></tr></tbody></table>',
    );
  });

  it('turns a title row over the column names into a spanning header cell', async () => {
    const element = await table(utf8('Stanley Cups,,\nTeam,Location,Cups\nBlues,STL,1\n'));
    expect(element.metadata.text_as_html).toContain(
      '<thead><tr><th colspan="3">Stanley Cups</th></tr><tr><th>Team</th><th>Location</th><th>Cups</th></tr></thead>',
    );
  });

  it('uses tabs for .tsv files even when cells contain commas', async () => {
    const element = await table(utf8('name\tnote\nAda\tmath, logic\n'), 'people.tsv');
    expect(element.metadata.filetype).toBe('text/tab-separated-values');
    expect(element.metadata.text_as_html).toContain('<td>math, logic</td>');
  });

  it('keeps the content of an unterminated quote instead of failing', async () => {
    const element = await table(utf8('a,b\n1,"open\n2,3\n'));
    expect(element.text).toContain('open');
  });

  it('returns no elements for a file without cells', async () => {
    expect(await partition({ data: utf8(',,\n , ,\n\n'), filename: 'blank.csv' })).toEqual([]);
    expect(await partition({ data: new Uint8Array(), filename: 'empty.csv' })).toEqual([]);
  });

  it('handles a table of many rows (no per-row recursion or argument spreading)', async () => {
    const rows = Array.from({ length: 150_000 }, (_, index) => `${index}`);
    const element = await table(utf8(`id\n${rows.join('\n')}\n`), 'long.csv', { languages: ['eng'] });
    expect(element.text.split('\n')).toHaveLength(150_001);
  });

  it('refuses a table beyond the cell limit with limit_exceeded', () => {
    const columns = 100;
    const rows = Math.ceil(MAX_TABLE_CELLS / columns) + 1;
    const line = `${Array.from({ length: columns }, () => '1').join(',')}\n`;
    expect(() => parseRows(line.repeat(rows), ',')).toThrow(
      expect.objectContaining({ code: 'limit_exceeded' }),
    );
  });

  it('refuses an unknown explicit encoding with invalid_encoding', async () => {
    await expect(
      partition({ data: utf8('a,b\n'), filename: 'x.csv' }, { encoding: 'klingon-8' }),
    ).rejects.toThrow(expect.objectContaining({ code: 'invalid_encoding' }));
  });
});

describe('header rows', () => {
  it.each([
    [
      [
        ['Name', 'Age'],
        ['Alice', '34'],
      ],
      1,
    ],
    [
      [
        ['1', '2'],
        ['3', '4'],
      ],
      0,
    ],
    [
      [
        ['Title', '', ''],
        ['a', 'b', 'c'],
        ['1', '2', '3'],
      ],
      2,
    ],
    [[['Only one row']], 0],
    [
      [
        ['x', 'y'],
        ['a', 'b'],
        ['c', 'd'],
      ],
      1,
    ],
    [
      [
        ['Revenue', '$1,200'],
        ['Costs', '$300'],
      ],
      0,
    ],
  ])('%j has %i header rows', (rows, expected) => {
    expect(countHeaderRows(rows)).toBe(expected);
  });
});
