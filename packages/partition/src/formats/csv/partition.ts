import Papa from 'papaparse';
import { draft, type ElementDraft } from '../../elements/element.js';
import { type TableRow, tableToHtml, tableToText } from '../../elements/table-html.js';
import { ServiceError } from '../../errors.js';
import { assertText, decodeText } from '../../text/decode.js';
import type { FormatPartitioner } from '../format.js';
import { countHeaderRows, sniffDelimiter } from './sniff.js';

/**
 * CSV and TSV: the whole file is ONE Table element. `metadata.text_as_html` holds every row (header rows
 * as `<th>` in a `<thead>`), `text` the cells joined by spaces, one line per row.
 *
 * - Encoding: BOM, UTF-8, UTF-16/32 and legacy code pages are detected (text/decode.ts); `encoding` overrides.
 * - Delimiter: TSV uses tabs; CSV is sniffed among comma, semicolon, tab and pipe (sniff.ts). A file that
 *   no delimiter splits consistently is one column, one cell per line.
 * - Quoted fields may hold delimiters, quotes ("") and line breaks. An unterminated quote runs to the end
 *   of the file rather than failing, as spreadsheet programs do.
 * - Ragged rows stay ragged (no invented cells); columns that are empty in every row are dropped at the
 *   right edge, so a trailing delimiter on every line does not add a blank column.
 * - Size: at most MAX_TABLE_CELLS cells; a larger file is refused with `limit_exceeded` while parsing,
 *   before any HTML is built. Time and memory are linear (17 MB / 1 M cells: about 7 s and 180 MB).
 */

/** Largest table we build: about 50-100 MB of CSV; the element's HTML then stays within a few tens of MB. */
export const MAX_TABLE_CELLS = 2_000_000;

export const partition: FormatPartitioner = async ({ data, fileType, options }) => {
  assertText(data, fileType.id.toUpperCase(), options.encoding);
  const { text } = decodeText(data, options.encoding);
  const content = text.replace(/^\uFEFF/, '');
  const delimiter = fileType.id === 'tsv' ? '\t' : sniffDelimiter(content);
  const rows = parseRows(content, delimiter);
  return rowsToTable(rows);
};

/** Parse every row; throws limit_exceeded past MAX_TABLE_CELLS. Blank lines are skipped. */
export function parseRows(text: string, delimiter: string | undefined): string[][] {
  const rows: string[][] = [];
  let cells = 0;
  if (delimiter === undefined) {
    // One column: every non-blank line is a cell (quotes are literal text here).
    for (const line of text.split(/\r\n|\r|\n/)) {
      if (line.trim() === '') continue;
      rows.push([line]);
      if (++cells > MAX_TABLE_CELLS) throw tooLarge();
    }
    return rows;
  }
  Papa.parse<string[]>(text, {
    delimiter,
    skipEmptyLines: 'greedy',
    step: (result, parser) => {
      cells += result.data.length;
      if (cells > MAX_TABLE_CELLS) {
        parser.abort();
        return;
      }
      rows.push(result.data);
    },
  });
  if (cells > MAX_TABLE_CELLS) throw tooLarge();
  return rows;
}

function tooLarge(): ServiceError {
  return new ServiceError(
    'limit_exceeded',
    `The table has more than ${MAX_TABLE_CELLS} cells; split the file into smaller ones.`,
  );
}

/** Rows → one Table draft (none for a file without any non-blank cell). */
export function rowsToTable(rows: string[][]): ElementDraft[] {
  const width = usedWidth(rows);
  if (width === 0) return [];
  const trimmed = rows.map((row) => (row.length > width ? row.slice(0, width) : row));
  const headerRows = countHeaderRows(trimmed);
  const htmlRows: TableRow[] = trimmed.map((row, index) =>
    index < headerRows ? spanTitleRow(row, width) : row,
  );
  return [draft('Table', tableToText(trimmed), { text_as_html: tableToHtml(htmlRows, { headerRows }) })];
}

/** A header row with only its first cell filled is a title over the table: one cell spanning all columns. */
function spanTitleRow(row: string[], width: number): TableRow {
  const onlyFirst = row[0]?.trim() && row.slice(1).every((cell) => cell.trim() === '');
  return onlyFirst && width > 1 ? [{ text: row[0]!, colspan: width }] : row;
}

/** Number of columns up to the last one that has a non-blank cell in some row. */
function usedWidth(rows: readonly string[][]): number {
  let width = 0;
  for (const row of rows) {
    for (let index = row.length - 1; index >= width; index--) {
      if (row[index]!.trim() !== '') {
        width = index + 1;
        break;
      }
    }
  }
  return width;
}
