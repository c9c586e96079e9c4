/**
 * The one way every format writes a table: rows of cells → `text_as_html` and plain text. Keeping it in
 * one place means every Table element in the product has the same HTML shape:
 * `<table><thead><tr><th>..</th></tr></thead><tbody><tr><td>..</td></tr></tbody></table>` (thead only when
 * the source marks header rows), with colspan/rowspan attributes where cells span.
 */

export interface TableCell {
  text: string;
  colspan?: number;
  rowspan?: number;
}

export type TableRow = (TableCell | string)[];

export interface TableOptions {
  /** Number of leading rows that are header rows. */
  headerRows?: number;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (char) => ESCAPES[char]!);
}

function toCell(cell: TableCell | string): TableCell {
  return typeof cell === 'string' ? { text: cell } : cell;
}

function renderRow(row: TableRow, tag: 'td' | 'th'): string {
  const cells = row.map((raw) => {
    const cell = toCell(raw);
    const attributes =
      (cell.colspan && cell.colspan > 1 ? ` colspan="${cell.colspan}"` : '') +
      (cell.rowspan && cell.rowspan > 1 ? ` rowspan="${cell.rowspan}"` : '');
    return `<${tag}${attributes}>${escapeHtml(cell.text.replace(/\s+/g, ' ').trim())}</${tag}>`;
  });
  return `<tr>${cells.join('')}</tr>`;
}

export function tableToHtml(rows: readonly TableRow[], options: TableOptions = {}): string {
  const headerRows = Math.min(options.headerRows ?? 0, rows.length);
  const head = rows.slice(0, headerRows).map((row) => renderRow(row, 'th'));
  const body = rows.slice(headerRows).map((row) => renderRow(row, 'td'));
  return `<table>${head.length ? `<thead>${head.join('')}</thead>` : ''}<tbody>${body.join('')}</tbody></table>`;
}

/** Plain text of a table: cells separated by spaces, rows by newlines (what `text` of a Table holds). */
export function tableToText(rows: readonly TableRow[]): string {
  return rows
    .map((row) =>
      row
        .map((cell) => toCell(cell).text.replace(/\s+/g, ' ').trim())
        .filter(Boolean)
        .join(' '),
    )
    .filter(Boolean)
    .join('\n');
}
