import { Parser } from 'htmlparser2';
import type { Element } from '../elements/element.js';
import { type TableCell, type TableRow, tableToHtml } from '../elements/table-html.js';
import { collapseWhitespace } from './element-text.js';
import { splitText } from './text-split.js';

/**
 * Splitting a table whose text is longer than the hard limit into TableChunk pieces.
 *
 * - Pieces hold whole rows, in order; the text of a piece is the text of its rows (cells separated by a
 *   space, rows by a newline, as every Table's text is) and never exceeds the hard limit.
 * - Each piece's text_as_html is a complete, valid table of its rows, written by the shared table
 *   writer. The header rows (a <thead>, or leading rows of <th> cells) are repeated in the HTML of every
 *   piece, so each piece can be read on its own; their text counts only in the first piece. A header
 *   whose text alone exceeds the hard limit is not repeated (it is split like any other rows).
 * - A row longer than the limit is split between cells: each piece is a row with all the columns, the
 *   cells of other pieces left empty, so columns stay in place; a single cell longer than the limit is
 *   split like text, at sentence or word boundaries. No overlap is added inside tables.
 * - rowspan is cut at the end of a piece (the continuation rows of the next piece lack that cell).
 * - A table without text_as_html is split by its text lines; its pieces have no text_as_html either.
 */

interface Row {
  cells: TableCell[];
  /** Inside <thead>, or a leading row of <th> cells. */
  header: boolean;
  /** Plain text of the row: non-empty cell texts joined by a space. */
  text: string;
}

export interface TablePiece {
  text: string;
  html: string | undefined;
}

export function splitTable(table: Element, maxChars: number): TablePiece[] {
  const html = table.metadata.text_as_html;
  const parsed = html ? parseTableHtml(html) : [];
  const fromHtml = parsed.length > 0;
  const rows = fromHtml ? parsed : linesAsRows(table.text);
  let headerCount = 0;
  while (headerCount < rows.length && rows[headerCount]!.header) headerCount++;
  if (headerCount === rows.length || joinedLength(rows.slice(0, headerCount)) > maxChars) headerCount = 0;
  const header = rows.slice(0, headerCount);

  const pieces: TablePiece[] = [];
  const emit = (group: Row[]): void => {
    const text = group
      .map((row) => row.text)
      .filter(Boolean)
      .join('\n');
    if (text === '') return;
    const body = group.filter((row) => !header.includes(row));
    pieces.push({ text, html: fromHtml ? renderRows(header, body) : undefined });
  };

  let group: Row[] = [];
  let length = 0;
  for (const row of rows) {
    const added = row.text.length === 0 ? 0 : row.text.length + (length > 0 ? 1 : 0);
    if (length + added <= maxChars) {
      group.push(row);
      length += added;
      continue;
    }
    emit(group);
    group = [];
    length = 0;
    if (row.text.length <= maxChars) {
      group.push(row);
      length = row.text.length;
    } else {
      for (const part of splitRow(row, maxChars)) emit([part]);
    }
  }
  emit(group);
  return pieces;
}

function joinedLength(rows: readonly Row[]): number {
  return rows
    .map((row) => row.text)
    .filter(Boolean)
    .join('\n').length;
}

function makeRow(cells: TableCell[], header: boolean): Row {
  const text = cells
    .map((cell) => collapseWhitespace(cell.text))
    .filter(Boolean)
    .join(' ');
  return { cells, header, text };
}

function linesAsRows(text: string): Row[] {
  return text.split('\n').map((line) => makeRow([{ text: line }], false));
}

/** Pieces of one over-long row: consecutive cells while they fit; an over-long cell split like text. */
function splitRow(row: Row, maxChars: number): Row[] {
  const parts: Row[] = [];
  let chosen = new Map<number, string>();
  let length = 0;
  const flush = (): void => {
    if (chosen.size === 0) return;
    const cells = row.cells.map((cell, index) => ({
      text: chosen.get(index) ?? '',
      ...(cell.colspan ? { colspan: cell.colspan } : {}),
    }));
    parts.push(makeRow(cells, row.header));
    chosen = new Map();
    length = 0;
  };
  row.cells.forEach((cell, index) => {
    const text = collapseWhitespace(cell.text);
    if (text === '') return;
    if (text.length > maxChars) {
      flush();
      for (const piece of splitText(text, maxChars)) {
        chosen.set(index, piece.text);
        flush();
      }
      return;
    }
    const added = text.length + (length > 0 ? 1 : 0);
    if (length + added > maxChars) flush();
    chosen.set(index, text);
    length += text.length + (chosen.size > 1 ? 1 : 0);
  });
  flush();
  return parts;
}

function renderRows(header: readonly Row[], body: readonly Row[]): string {
  const rows: TableRow[] = [...clampRowspans(header), ...clampRowspans(body)];
  return tableToHtml(rows, { headerRows: header.length });
}

/** A rowspan may not reach past the last row of its section of this piece. */
function clampRowspans(rows: readonly Row[]): TableRow[] {
  return rows.map((row, index) =>
    row.cells.map((cell) => {
      const remaining = rows.length - index;
      return cell.rowspan && cell.rowspan > remaining ? { ...cell, rowspan: remaining } : cell;
    }),
  );
}

/**
 * Rows of the outermost table of `html`. Forgiving like browsers: unclosed <tr>/<td> end where the next
 * one starts; the text of a nested table belongs to the cell that holds it.
 */
export function parseTableHtml(html: string): Row[] {
  const rows: { cells: TableCell[]; inHead: boolean; allTh: boolean }[] = [];
  let depth = 0;
  let inHead = false;
  let row: (typeof rows)[number] | undefined;
  let cell: { text: string; colspan?: number; rowspan?: number; th: boolean } | undefined;

  const closeCell = (): void => {
    if (!cell) return;
    if (!row) {
      row = { cells: [], inHead, allTh: true };
      rows.push(row);
    }
    const { th, ...rest } = cell;
    row.cells.push(rest);
    if (!th) row.allTh = false;
    cell = undefined;
  };
  const closeRow = (): void => {
    closeCell();
    row = undefined;
  };
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === 'table') {
          depth++;
          if (depth > 1 && cell) cell.text += ' ';
          return;
        }
        if (depth !== 1) {
          if (cell && (name === 'br' || name === 'td' || name === 'th' || name === 'tr')) cell.text += ' ';
          return;
        }
        if (name === 'thead') inHead = true;
        else if (name === 'tbody' || name === 'tfoot') inHead = false;
        else if (name === 'tr') {
          closeRow();
          row = { cells: [], inHead, allTh: true };
          rows.push(row);
        } else if (name === 'td' || name === 'th') {
          closeCell();
          cell = { text: '', th: name === 'th', ...spans(attributes) };
        } else if (name === 'br' && cell) cell.text += ' ';
      },
      ontext(text) {
        if (cell) cell.text += text;
      },
      onclosetag(name) {
        if (name === 'table') {
          if (depth === 1) closeRow();
          depth = Math.max(0, depth - 1);
        } else if (depth !== 1) return;
        else if (name === 'td' || name === 'th') closeCell();
        else if (name === 'tr') closeRow();
        else if (name === 'thead') inHead = false;
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(html);
  parser.end();
  closeRow();

  // -- without a <thead>, leading rows made only of <th> cells are the header --
  const explicitHead = rows.some((r) => r.inHead);
  let leading = true;
  return rows.map((r) => {
    leading = leading && r.allTh && r.cells.length > 0;
    const header = explicitHead ? r.inHead : leading;
    return makeRow(
      r.cells.map((c) => ({ ...c, text: collapseWhitespace(c.text) })),
      header,
    );
  });
}

function spans(attributes: Record<string, string>): { colspan?: number; rowspan?: number } {
  const result: { colspan?: number; rowspan?: number } = {};
  const colspan = Number.parseInt(attributes.colspan ?? '', 10);
  const rowspan = Number.parseInt(attributes.rowspan ?? '', 10);
  if (colspan > 1) result.colspan = Math.min(colspan, 1000);
  if (rowspan > 1) result.rowspan = Math.min(rowspan, 65534);
  return result;
}
