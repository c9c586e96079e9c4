import { describe, expect, it } from 'vitest';
import { escapeHtml, tableToHtml, tableToText } from './table-html.js';

describe('table HTML', () => {
  it('escapes the HTML-significant characters and leaves clean text alone', () => {
    expect(escapeHtml('a<b>&"c"')).toBe('a&lt;b&gt;&amp;&quot;c&quot;');
    expect(escapeHtml('plain text')).toBe('plain text');
  });

  it('writes header rows as th in thead, spans as attributes, and folds whitespace', () => {
    expect(
      tableToHtml(
        [
          [' a  b\n', { text: 'x', colspan: 2 }],
          ['1', { text: '2', rowspan: 3 }],
        ],
        { headerRows: 1 },
      ),
    ).toBe(
      '<table><thead><tr><th>a b</th><th colspan="2">x</th></tr></thead><tbody><tr><td>1</td><td rowspan="3">2</td></tr></tbody></table>',
    );
    expect(tableToHtml([])).toBe('<table><tbody></tbody></table>');
  });

  it('gives the plain text of a table: cells by spaces, rows by newlines, empty ones dropped', () => {
    expect(tableToText([['a\tb', ''], [], ['c']])).toBe('a b\nc');
  });
});
