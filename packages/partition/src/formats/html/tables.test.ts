import { describe, expect, it } from 'vitest';
import { htmlToDrafts } from './html-to-drafts.js';

const tables = (html: string) => htmlToDrafts(html).filter((d) => d.type === 'Table');

describe('HTML tables', () => {
  it('renders th header rows into thead and keeps cell texts', () => {
    const [table] = tables(
      '<table><tr><th>Name</th><th>Qty</th></tr><tr><td>Apples</td><td>3</td></tr><tr><td>Pears</td><td>5</td></tr></table>',
    );
    expect(table!.text).toBe('Name Qty\nApples 3\nPears 5');
    expect(table!.metadata!.text_as_html).toBe(
      '<table><thead><tr><th>Name</th><th>Qty</th></tr></thead><tbody><tr><td>Apples</td><td>3</td></tr><tr><td>Pears</td><td>5</td></tr></tbody></table>',
    );
  });

  it('keeps colspan and rowspan, and a thead section as header', () => {
    const [table] = tables(`<table><thead><tr><th rowspan="2">Region</th><th colspan="2">Sales</th></tr>
      <tr><th>2023</th><th>2024</th></tr></thead>
      <tbody><tr><td>North</td><td>10</td><td>12</td></tr><tr><td>South</td><td>7</td><td>9</td></tr></tbody></table>`);
    expect(table!.metadata!.text_as_html).toBe(
      '<table><thead><tr><th rowspan="2">Region</th><th colspan="2">Sales</th></tr><tr><th>2023</th><th>2024</th></tr></thead>' +
        '<tbody><tr><td>North</td><td>10</td><td>12</td></tr><tr><td>South</td><td>7</td><td>9</td></tr></tbody></table>',
    );
  });

  it('drops spacer columns and empty rows, recounting spans over what is left', () => {
    const [table] = tables(`<table>
      <tr><td>&nbsp;</td><td colspan="3">Year</td></tr>
      <tr><td></td><td></td><td></td><td></td></tr>
      <tr><td>Revenue</td><td>$</td><td>100</td><td>&nbsp;</td></tr>
      <tr><td>Costs</td><td>$</td><td>80</td><td></td></tr></table>`);
    expect(table!.metadata!.text_as_html).toBe(
      '<table><tbody><tr><td></td><td colspan="2">Year</td></tr><tr><td>Revenue</td><td>$</td><td>100</td></tr><tr><td>Costs</td><td>$</td><td>80</td></tr></tbody></table>',
    );
  });

  it('emits the caption as a FigureCaption before the table', () => {
    const drafts = htmlToDrafts(
      '<table><caption>Table 2. Prices</caption><tr><td>a</td><td>1</td></tr><tr><td>b</td><td>2</td></tr></table>',
    );
    expect(drafts.map((d) => [d.type, d.text])).toEqual([
      ['FigureCaption', 'Table 2. Prices'],
      ['Table', 'a 1\nb 2'],
    ]);
  });

  it('reads layout tables (one column, one row, nested tables, headings) as ordinary blocks', () => {
    const drafts =
      htmlToDrafts(`<table><tr><td><h1>Essay</h1><p>The first paragraph of the essay is here.</p></td>
      <td><table><tr><td>x</td><td>y</td></tr><tr><td>1</td><td>2</td></tr></table></td></tr></table>
      <table role="presentation"><tr><td>Menu</td><td>About</td></tr><tr><td>a</td><td>b</td></tr></table>
      <table><tr><td>Only one column here</td></tr><tr><td>And a second row of it</td></tr></table>`);
    expect(drafts.map((d) => d.type)).toEqual([
      'Title',
      'NarrativeText',
      'Table',
      'UncategorizedText',
      'UncategorizedText',
      'UncategorizedText',
      'UncategorizedText',
      'UncategorizedText',
      'UncategorizedText',
    ]);
    expect(drafts[2]!.metadata!.text_as_html).toContain('<td>x</td><td>y</td>');
  });

  it('reads one-row tables that start with a bullet or number as list items', () => {
    const drafts =
      htmlToDrafts(`<table><tr><td>&#160;</td><td>&#8226;</td><td>Findings of suitability for officers;</td></tr></table>
      <table><tr><td>(a)</td><td>Documentation of qualification</td></tr></table>`);
    expect(drafts.map((d) => [d.type, d.text])).toEqual([
      ['ListItem', 'Findings of suitability for officers;'],
      ['ListItem', '(a) Documentation of qualification'],
    ]);
  });

  it('reads rows left outside their table by a stray end tag as one table', () => {
    const drafts = htmlToDrafts(
      "<center><table border='1'></center><tr><td>C</td><td>Si</td></tr><tr><td>0.39</td><td>0.2</td></tr></table><p>after</p>",
    );
    expect(drafts.map((d) => [d.type, d.text])).toEqual([
      ['Table', 'C Si\n0.39 0.2'],
      ['UncategorizedText', 'after'],
    ]);
  });

  it('keeps a table whose cell boxes its text in a one-cell table, with that text in the cell', () => {
    const [table] = tables(
      '<table><tr><td>Standards:</td><td><table><tr><td>JIS G 4108</td></tr></table></td></tr><tr><td>Grade:</td><td>SNB22-3</td></tr></table>',
    );
    expect(table!.text).toBe('Standards: JIS G 4108\nGrade: SNB22-3');
  });

  it('skips empty tables and survives absurd spans', () => {
    expect(htmlToDrafts('<table><tr><td> </td></tr></table>')).toEqual([]);
    const [table] = tables(
      `<table><tr><td colspan="999999" rowspan="999999">big</td><td>b</td></tr>${'<tr><td colspan="1000" rowspan="0">x</td><td>y</td></tr>'.repeat(100)}</table>`,
    );
    expect(table!.text.startsWith('big b')).toBe(true);
  });
});
