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

const NEEDS_ESCAPE = /[&<>"]/;

/** Escape text for HTML. Most cells need nothing, so test once before four cheap replaces (hot path). */
export function escapeHtml(text: string): string {
  if (!NEEDS_ESCAPE.test(text)) return text;
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
}

const WHITESPACE_RUN = /\s+/g;
const NEEDS_SPACE_FOLD = /\s\s|[^\S ]/;

/** Collapse whitespace runs to one space and trim, skipping the regex pass for already-clean text. */
function foldSpace(text: string): string {
  return (NEEDS_SPACE_FOLD.test(text) ? text.replace(WHITESPACE_RUN, ' ') : text).trim();
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
    return `<${tag}${attributes}>${escapeHtml(foldSpace(cell.text))}</${tag}>`;
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
        .map((cell) => foldSpace(toCell(cell).text))
        .filter(Boolean)
        .join(' '),
    )
    .filter(Boolean)
    .join('\n');
}
