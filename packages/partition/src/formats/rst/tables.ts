import { escapeHtml } from '../../elements/table-html.js';
import { type LinkTargets, rstInlineToHtml } from './inline.js';

/**
 * RST grid tables (+---+ borders) and simple tables (=== column rules) → HTML tables, which htmlToDrafts
 * turns into Table elements. Column spans are kept; row spans in grid tables are read as separate rows.
 */

export interface ParsedTable {
  /** Rows of cells; a cell is its text and how many columns it spans. */
  rows: { text: string; colspan: number }[][];
  headerRows: number;
}

export const GRID_BORDER = /^\+(?:[-=]+\+)+\s*$/;
export const SIMPLE_BORDER = /^=+(?: +=+)+\s*$/;
const GRID_SEPARATOR = /^[+|][-=+| ]*$/;

export function tableHtml(table: ParsedTable, targets: LinkTargets, caption?: string): string {
  const rows = table.rows.map((row, index) => {
    const tag = index < table.headerRows ? 'th' : 'td';
    const cells = row.map(
      (cell) =>
        `<${tag}${cell.colspan > 1 ? ` colspan="${cell.colspan}"` : ''}>${rstInlineToHtml(cell.text, targets)}</${tag}>`,
    );
    return `<tr>${cells.join('')}</tr>`;
  });
  const head = rows.slice(0, table.headerRows).join('');
  const body = rows.slice(table.headerRows).join('');
  const captionHtml = caption ? `<caption>${escapeHtml(caption)}</caption>` : '';
  return `<table>${captionHtml}${head ? `<thead>${head}</thead>` : ''}<tbody>${body}</tbody></table>`;
}

/** Lines of a grid table starting at `start`; returns the table and the index after it. */
export function readGridTable(lines: string[], start: number): { table: ParsedTable; next: number } {
  let end = start;
  while (end < lines.length && /^[+|]/.test(lines[end]!)) end++;
  const block = lines.slice(start, end).map((line) => line.trimEnd());
  const boundaries = [...block[0]!].flatMap((char, index) => (char === '+' ? [index] : []));
  const rows: ParsedTable['rows'] = [];
  let headerRows = 0;
  let region: string[] = [];
  for (const line of block.slice(1)) {
    if (!GRID_SEPARATOR.test(line)) {
      region.push(line);
      continue;
    }
    if (region.length > 0) rows.push(gridRow(region, boundaries));
    if (line.includes('=')) headerRows = rows.length;
    region = [];
  }
  if (region.length > 0) rows.push(gridRow(region, boundaries));
  return { table: { rows, headerRows: headerRows < rows.length ? headerRows : 0 }, next: end };
}

function gridRow(region: string[], boundaries: number[]): ParsedTable['rows'][number] {
  const cells: ParsedTable['rows'][number] = [];
  let cellStart = 0;
  for (let index = 1; index < boundaries.length; index++) {
    const position = boundaries[index]!;
    const isCellEdge = region.every((line) => position >= line.length || line[position] === '|');
    if (!isCellEdge && index < boundaries.length - 1) continue;
    const from = boundaries[cellStart]! + 1;
    const text = region
      .map((line) => line.slice(from, position).trim())
      .filter(Boolean)
      .join(' ');
    cells.push({ text, colspan: index - cellStart });
    cellStart = index;
  }
  return cells;
}

/** A simple table starting at its top border; returns the table and the index after it. */
export function readSimpleTable(lines: string[], start: number): { table: ParsedTable; next: number } {
  const columns = [...lines[start]!.matchAll(/=+/g)].map((match) => ({
    from: match.index,
    to: match.index + match[0].length,
  }));
  const rows: ParsedTable['rows'] = [];
  let borders = 1;
  let headerRows = 0;
  let index = start + 1;
  for (; index < lines.length; index++) {
    const line = lines[index]!;
    if (SIMPLE_BORDER.test(line)) {
      borders++;
      const following = lines[index + 1];
      const ends = following === undefined || following.trim() === '' || borders === 3;
      if (ends) {
        index++;
        break;
      }
      headerRows = rows.length;
      continue;
    }
    if (line.trim() === '' || /^[-\s]+$/.test(line)) continue;
    const cells = columns.map((column, position) =>
      line
        .slice(column.from, position === columns.length - 1 ? undefined : columns[position + 1]!.from)
        .trim(),
    );
    const previous = rows.at(-1);
    if (cells[0] === '' && previous) {
      // A row whose first column is empty continues the row above.
      cells.forEach((text, position) => {
        if (text) previous[position]!.text = `${previous[position]!.text} ${text}`.trim();
      });
    } else {
      rows.push(cells.map((text) => ({ text, colspan: 1 })));
    }
  }
  if (borders < 3) headerRows = 0;
  return { table: { rows, headerRows }, next: index };
}
