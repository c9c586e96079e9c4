import type { Element } from 'domhandler';
import type { TableCell } from '../../elements/table-html.js';
import { isBulleted } from '../../text/text-type.js';
import { childElements, findElements, HEADING_LEVEL, hasDescendant, textContent } from './dom.js';

/**
 * HTML <table> → rows of cells for elements/table-html.ts. Two clean-ups make tables from word
 * processors and SEC filings readable: columns and rows in which no cell has text are removed (spacer
 * columns, empty separator rows), and spans are recounted over what remains. Tables used for page layout
 * rather than data are recognised so their content is read as ordinary blocks.
 */

export interface HtmlTable {
  rows: TableCell[][];
  /** Leading rows that are header rows (in <thead>, or made only of <th>). */
  headerRows: number;
  caption: string | undefined;
}

/** The HTML spec's own caps on spans; they also bound the grid we build. */
const MAX_COLSPAN = 1000;
const MAX_ROWSPAN = 65534;
/** Grid positions a table may mark as covered; beyond this, spans are ignored (hostile input). */
const MAX_GRID_CELLS = 1_000_000;

interface PlacedCell {
  row: number;
  column: number;
  colspan: number;
  rowspan: number;
  text: string;
}

function spanValue(raw: string | undefined, max: number): number {
  const value = Number.parseInt(raw ?? '1', 10);
  if (!Number.isFinite(value) || value < 0) return 1;
  return Math.min(value, max);
}

/** Rows of this table, not of tables nested in its cells. */
function tableRows(table: Element): { row: Element; inHead: boolean }[] {
  return findElements(
    table,
    (element) => element.name === 'tr',
    (element) => element.name !== 'table',
  ).map((row) => ({ row, inHead: row.parent !== null && (row.parent as Element).name === 'thead' }));
}

export function readTable(table: Element): HtmlTable {
  const rows = tableRows(table);
  const placed: PlacedCell[] = [];
  const occupied: Set<number>[] = rows.map(() => new Set<number>());
  const headerFlags: boolean[] = [];
  let gridBudget = MAX_GRID_CELLS;
  for (const [rowIndex, { row, inHead }] of rows.entries()) {
    let column = 0;
    let allHeaderCells = true;
    let cellCount = 0;
    for (const cell of childElements(row)) {
      if (cell.name !== 'td' && cell.name !== 'th') continue;
      cellCount++;
      if (cell.name !== 'th') allHeaderCells = false;
      while (occupied[rowIndex]!.has(column)) column++;
      let colspan = Math.max(1, spanValue(cell.attribs.colspan, MAX_COLSPAN));
      const rawRowspan = spanValue(cell.attribs.rowspan, MAX_ROWSPAN);
      // rowspan="0" means "to the end of the table".
      let rowspan = rawRowspan === 0 ? rows.length - rowIndex : Math.min(rawRowspan, rows.length - rowIndex);
      if (colspan * rowspan > gridBudget) {
        colspan = 1;
        rowspan = 1;
      }
      gridBudget -= colspan * rowspan;
      for (let r = rowIndex; r < rowIndex + rowspan; r++) {
        for (let c = column; c < column + colspan; c++) occupied[r]!.add(c);
      }
      placed.push({ row: rowIndex, column, colspan, rowspan, text: textContent(cell) });
      column += colspan;
    }
    headerFlags.push(inHead || (cellCount > 0 && allHeaderCells));
  }
  return { ...compact(placed, rows.length, headerFlags), caption: tableCaption(table) };
}

/** Drop rows and columns where no non-empty cell starts; recount spans over the kept ones. */
function compact(placed: PlacedCell[], rowCount: number, headerFlags: boolean[]): Omit<HtmlTable, 'caption'> {
  const keptColumns = new Set<number>();
  const keptRows = new Set<number>();
  for (const cell of placed) {
    if (cell.text === '') continue;
    keptColumns.add(cell.column);
    keptRows.add(cell.row);
  }
  const countKept = (kept: Set<number>, from: number, span: number) => {
    let count = 0;
    // Spans can be huge while kept sets are small: iterate over the smaller side.
    if (span > kept.size) {
      for (const index of kept) if (index >= from && index < from + span) count++;
    } else {
      for (let index = from; index < from + span; index++) if (kept.has(index)) count++;
    }
    return count;
  };
  const rows: TableCell[][] = [];
  let headerRows = 0;
  let stillHeader = true;
  const byRow = new Map<number, PlacedCell[]>();
  for (const cell of placed) {
    if (!keptRows.has(cell.row)) continue;
    const list = byRow.get(cell.row) ?? [];
    list.push(cell);
    byRow.set(cell.row, list);
  }
  for (let rowIndex = 0; rowIndex < rowCount; rowIndex++) {
    if (!keptRows.has(rowIndex)) continue;
    const row: TableCell[] = [];
    for (const cell of byRow.get(rowIndex) ?? []) {
      const colspan = countKept(keptColumns, cell.column, cell.colspan);
      if (colspan === 0) continue;
      const rowspan = countKept(keptRows, cell.row, cell.rowspan);
      const out: TableCell = { text: cell.text };
      if (colspan > 1) out.colspan = colspan;
      if (rowspan > 1) out.rowspan = rowspan;
      row.push(out);
    }
    if (stillHeader && headerFlags[rowIndex]) headerRows++;
    else stillHeader = false;
    rows.push(row);
  }
  // A table made only of header cells has no header: it is all data.
  if (headerRows >= rows.length) headerRows = 0;
  return { rows, headerRows };
}

function tableCaption(table: Element): string | undefined {
  const caption = childElements(table).find((child) => child.name === 'caption');
  const text = caption ? textContent(caption) : '';
  return text === '' ? undefined : text;
}

export type TableKind = 'data' | 'layout' | 'list-row' | 'empty';

/** "1.", "1)", "(1)", "a.", "(a)", "iv." alone. */
const NUMBER_MARKER = /^(?:\(?\d{1,3}[.)]|\(\d{1,3}\)|\(?[a-z][.)]|\(?[ivxlc]{1,6}[.)])$/i;

/** A list marker alone in a cell: a bullet ("•", "-") or a number ("1.", "(a)", "iv."). */
export function isListMarker(text: string): boolean {
  if (text.length === 0 || text.length > 6) return false;
  return isBulleted(text) || NUMBER_MARKER.test(text);
}

/**
 * What a table is for. Layout tables (role=presentation, tables holding tables or headings, a single
 * row or a single column) are read as blocks; a one-row table whose first cell is a bullet or number is
 * how word processors export list items; anything else is data.
 */
export function tableKind(table: Element, parsed: HtmlTable): TableKind {
  const nonEmpty = parsed.rows.flat().filter((cell) => cell.text !== '');
  if (nonEmpty.length === 0) return 'empty';
  const role = table.attribs.role?.toLowerCase();
  if (role === 'presentation' || role === 'none') return 'layout';
  if (parsed.rows.length === 1) {
    return nonEmpty.length >= 2 && isListMarker(nonEmpty[0]!.text) ? 'list-row' : 'layout';
  }
  const columns = Math.max(
    ...parsed.rows.map((row) => row.reduce((sum, cell) => sum + (cell.colspan ?? 1), 0)),
  );
  if (columns <= 1) return 'layout';
  const holdsStructure = hasDescendant(
    table,
    (element) => HEADING_LEVEL[element.name] !== undefined || (element.name === 'table' && isGrid(element)),
  );
  return holdsStructure ? 'layout' : 'data';
}

/**
 * A nested table with at least two rows and two columns is structure of its own, so the table holding it
 * is layout. A one-row or one-column table inside a cell is just how that cell's text was boxed.
 */
function isGrid(table: Element): boolean {
  const rows = tableRows(table);
  if (rows.length < 2) return false;
  return rows.some(
    ({ row }) => childElements(row).filter((cell) => cell.name === 'td' || cell.name === 'th').length >= 2,
  );
}
