import type { TableCell, TableRow } from '../elements/table-html.js';
import { alignedTables } from './table-align.js';
import { ruledTables } from './table-grid.js';
import type { Box, Rule, TextLine } from './types.js';

/**
 * Table detection on one page, from two kinds of evidence:
 * - ruling lines that form a grid (table-grid.ts) — cells, including merged ones, come from the rules;
 * - text aligned in columns with whitespace gutters (table-align.ts), optionally fenced by horizontal
 *   rules only (the "booktabs" style) — cells come from the gutters.
 * Lines that fall inside a detected table are consumed: they do not appear again as paragraphs.
 */

export interface DetectedTable extends Box {
  rows: TableRow[];
  /** Leading header rows (bold first row, or the row above a header rule). */
  headerRows: number;
  /** How the table was found (kept in metadata.detection_origin). */
  method: 'ruled' | 'aligned';
}

export interface TableDetection {
  tables: DetectedTable[];
  /** Indices into the input `lines` that belong to a table. */
  consumed: Set<number>;
}

export function detectTables(lines: readonly TextLine[], rules: readonly Rule[]): TableDetection {
  const consumed = new Set<number>();
  const tables = ruledTables(lines, rules, consumed);
  tables.push(...alignedTables(lines, rules, consumed));
  return { tables, consumed };
}

/** Text of the lines in one cell, in reading order, hyphenated line ends rejoined. */
export function cellText(lines: readonly TextLine[]): string {
  const sorted = [...lines].sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
  let text = '';
  let previous: TextLine | undefined;
  for (const line of sorted) {
    if (previous === undefined) text = line.text;
    else if (previous.y1 - line.y0 > (line.y1 - line.y0) / 2) text += ` ${line.text}`;
    else text = joinWrapped(text, line.text);
    previous = line;
  }
  return text.trim();
}

/**
 * Join a wrapped line to the text before it: a word broken with a hyphen at the line end is rejoined
 * ("infor-" + "mation" → "information"), a compound broken at its hyphen keeps it ("Lucene-" + "BM25" →
 * "Lucene-BM25"); otherwise the two are joined with a space. Without a dictionary, a lower-case compound
 * broken at its hyphen ("dual-" + "encoder") loses the hyphen: the rarer case in justified text.
 */
export function joinWrapped(before: string, after: string): string {
  if (before === '') return after;
  if (/\p{Ll}[-\u00ad\u2010]$/u.test(before) && /^\p{Ll}/u.test(after)) {
    return before.slice(0, -1) + after;
  }
  if (before.endsWith('\u00ad')) return before.slice(0, -1) + after;
  // A hyphen before a capital or a digit joins a compound ("Lucene-" + "BM25", "COVID-" + "19"): kept.
  if (/[\p{L}\p{N}]-$/u.test(before) && /^[\p{Lu}\p{N}]/u.test(after)) return before + after;
  return `${before} ${after}`;
}

/** A cell of the grid with its span, before rendering. */
export function spanCell(text: string, colspan: number, rowspan: number): TableCell | string {
  if (colspan <= 1 && rowspan <= 1) return text;
  const cell: TableCell = { text };
  if (colspan > 1) cell.colspan = colspan;
  if (rowspan > 1) cell.rowspan = rowspan;
  return cell;
}
