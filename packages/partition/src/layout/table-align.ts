import type { TableRow } from '../elements/table-html.js';
import { centerX, centerY, height } from './geometry.js';
import { cellText, type DetectedTable, spanCell } from './tables.js';
import type { Rule, TextLine } from './types.js';

/**
 * Tables without a grid: consecutive rows of text split into cells by whitespace gutters that line up
 * from row to row. Text lines reach here already split at wide gaps (glyphsToLines), so a table row is
 * a row of several line fragments. Prose in two page columns also gives rows of two fragments; it is
 * told apart by its long cells, by lines that run on, and by two wide columns of many rows. A table in
 * one page column beside prose in the other is split off before its rows are read.
 */

/** Rows closer than this many line heights belong to one table. */
const MAX_ROW_GAP = 1.8;
/** Without horizontal rules around it, a table needs this many rows of several cells. */
const MIN_ROWS = 3;
/** With rules above and below ("booktabs" style), two such rows are enough. */
const MIN_ROWS_FENCED = 2;
/** Cells of prose columns are long; table cells are short. */
const MAX_MEAN_WORDS_PER_CELL = 6;
const MAX_MEAN_WORDS_PER_CELL_WIDE = 9;
/** Columns are separated by at least this much whitespace (in ems). */
const MIN_GUTTER_EM = 0.8;

interface Row {
  /** `part`: a piece of a fragment split by splitNumbers (its position is an estimate). */
  lines: { line: TextLine; index: number; part?: boolean }[];
  y0: number;
  y1: number;
}

export function alignedTables(
  lines: readonly TextLine[],
  rules: readonly Rule[],
  consumed: Set<number>,
): DetectedTable[] {
  const rows = groupRows(lines, consumed);
  if (rows.length < MIN_ROWS_FENCED) return [];
  const fences = horizontalFences(rules);
  const lineHeight = median(rows.map((row) => row.y1 - row.y0)) || 10;
  const tables: DetectedTable[] = [];
  const verticalRules = rules.filter((rule) => rule.x1 - rule.x0 <= 3 && rule.y1 - rule.y0 > 6);
  // A table in one page column shares its rows with the prose of the other: each side is looked at
  // alone, split off the whole page where a gutter runs through it, else off a run of rows.
  const regions: Row[][] = [rows];
  while (regions.length > 0) {
    const region = regions.shift()!;
    const sides = splitAtProseGutter(region);
    if (sides) {
      regions.push(...sides);
      continue;
    }
    for (const run of runs(region, lineHeight)) {
      const runSides = run.length < region.length ? splitAtProseGutter(run) : undefined;
      if (runSides) {
        regions.push(...runSides);
        continue;
      }
      const table = tableFromRun(run, fences, verticalRules);
      if (!table) continue;
      tables.push(table.table);
      for (const index of table.indices) consumed.add(index);
    }
  }
  return tables;
}

function groupRows(lines: readonly TextLine[], consumed: Set<number>): Row[] {
  return rowsOf(
    lines
      .map((line, index) => ({ line, index }))
      .filter(({ index, line }) => !consumed.has(index) && line.text !== ''),
  );
}

/** Lines (with their indices) grouped into rows top to bottom, each row's lines left to right. */
function rowsOf(entries: readonly { line: TextLine; index: number }[]): Row[] {
  const order = [...entries].sort((a, b) => centerY(a.line) - centerY(b.line));
  const rows: Row[] = [];
  for (const entry of order) {
    const row = rows[rows.length - 1];
    const overlap = row ? Math.min(row.y1, entry.line.y1) - Math.max(row.y0, entry.line.y0) : -1;
    if (row && overlap > 0.5 * Math.min(row.y1 - row.y0, height(entry.line))) {
      row.lines.push(entry);
      row.y0 = Math.min(row.y0, entry.line.y0);
      row.y1 = Math.max(row.y1, entry.line.y1);
    } else {
      rows.push({ lines: [entry], y0: entry.line.y0, y1: entry.line.y1 });
    }
  }
  for (const row of rows) row.lines.sort((a, b) => a.line.x0 - b.line.x0);
  return rows;
}

/** Maximal runs of close rows that start and end with a row of several cells. */
function runs(rows: Row[], lineHeight: number): Row[][] {
  const result: Row[][] = [];
  let current: Row[] = [];
  const flush = () => {
    while (current.length > 0 && current[current.length - 1]!.lines.length < 2) current.pop();
    if (current.filter((row) => row.lines.length >= 2).length >= MIN_ROWS_FENCED) result.push(current);
    current = [];
  };
  for (const row of rows) {
    const previous = current[current.length - 1];
    if (previous && row.y0 - previous.y1 > MAX_ROW_GAP * lineHeight) flush();
    if (current.length === 0 && row.lines.length < 2) continue;
    current.push(row);
  }
  flush();
  return result;
}

/** Groups of two or more stacked horizontal rules of similar extent: the fence of a booktabs table. */
function horizontalFences(rules: readonly Rule[]): { x0: number; x1: number; y0: number; y1: number }[] {
  const horizontal = rules.filter((rule) => rule.y1 - rule.y0 <= 3 && rule.x1 - rule.x0 >= 30);
  const fences: { x0: number; x1: number; y0: number; y1: number; count: number }[] = [];
  for (const rule of horizontal) {
    const fence = fences.find(
      (f) =>
        Math.min(f.x1, rule.x1) - Math.max(f.x0, rule.x0) >= 0.8 * Math.min(f.x1 - f.x0, rule.x1 - rule.x0),
    );
    if (fence) {
      fence.y0 = Math.min(fence.y0, rule.y0);
      fence.y1 = Math.max(fence.y1, rule.y1);
      fence.count++;
    } else fences.push({ x0: rule.x0, x1: rule.x1, y0: rule.y0, y1: rule.y1, count: 1 });
  }
  return fences.filter((fence) => fence.count >= 2);
}

function tableFromRun(
  candidate: Row[],
  fences: { x0: number; x1: number; y0: number; y1: number }[],
  verticalRules: readonly Rule[],
): { table: DetectedTable; indices: number[] } | undefined {
  // Where the table groups thousands with commas, a space between numbers never groups them.
  const commaGrouped = candidate.some((row) => row.lines.some(({ line }) => /\d,\d{3}\b/.test(line.text)));
  const run = candidate.map((row) => ({
    ...row,
    lines: row.lines.flatMap((entry) => splitNumbers(entry, commaGrouped)),
  }));
  const multi = run.filter((row) => row.lines.length >= 2);
  const y0 = Math.min(...run.map((row) => row.y0));
  const y1 = Math.max(...run.map((row) => row.y1));
  const fenced = fences.some((fence) => fence.y0 <= y0 + 2 && fence.y1 >= y1 - 2);
  if (multi.length < (fenced ? MIN_ROWS_FENCED : MIN_ROWS)) return undefined;

  // Gutters come from fragments as drawn; the parts of a split fragment only find their columns.
  const drawn = bodyRows(multi).map((row) => ({ ...row, lines: row.lines.filter((entry) => !entry.part) }));
  const columns = gutterColumns(drawn.filter((row) => row.lines.length > 0));
  if (columns.length < 2) return undefined;
  // Columns divided by drawn vertical rules are a ruled grid's business (a table or page layout).
  const runHeight = y1 - y0;
  for (let i = 1; i < columns.length; i++) {
    const [left, right] = [columns[i - 1]!.x1, columns[i]!.x0];
    const ruled = verticalRules.some(
      (rule) =>
        rule.x0 >= left - 1 &&
        rule.x1 <= right + 1 &&
        Math.min(rule.y1, y1) - Math.max(rule.y0, y0) > 0.8 * runHeight,
    );
    if (ruled) return undefined;
  }
  const cells = multi.flatMap((row) => row.lines);
  const meanWords = cells.reduce((sum, cell) => sum + cell.line.text.split(/\s+/).length, 0) / cells.length;
  if (meanWords > (columns.length >= 3 ? MAX_MEAN_WORDS_PER_CELL_WIDE : MAX_MEAN_WORDS_PER_CELL))
    return undefined;
  if (flowsLikeProse(multi, columns)) return undefined;
  if (looksLikePageColumns(multi, columns, meanWords)) return undefined;

  const rows: TableRow[] = [];
  const indices = new Set<number>();
  let firstRowBold = true;
  for (const [rowNumber, row] of run.entries()) {
    for (const { index } of row.lines) indices.add(index);
    if (rowNumber === 0 && row.lines.some(({ line }) => !line.bold)) firstRowBold = false;
    rows.push(rowCells(row, columns));
  }
  const x0 = Math.min(...run.flatMap((row) => row.lines.map((l) => l.line.x0)));
  const x1 = Math.max(...run.flatMap((row) => row.lines.map((l) => l.line.x1)));
  return {
    table: { x0, y0, x1, y1, rows, headerRows: firstRowBold ? 1 : 0, method: 'aligned' },
    indices: [...indices],
  };
}

/**
 * The cells of one row. A fragment that reaches over several columns no other fragment of its row
 * touches spans them (a heading over sub-columns, a section row); the others go to the column of their
 * centre, several in one column joined as wrapped lines.
 */
function rowCells(row: Row, columns: { x0: number; x1: number }[]): TableRow {
  const touched = row.lines.map(({ line }) => {
    const hit = columns.flatMap((column, i) =>
      Math.min(column.x1, line.x1) - Math.max(column.x0, line.x0) > 0 ? [i] : [],
    );
    return hit.length > 0 ? { first: hit[0]!, last: hit.at(-1)! } : undefined;
  });
  const byColumn: TextLine[][] = columns.map(() => []);
  const spans = new Map<number, { span: number; line: TextLine }>();
  row.lines.forEach(({ line }, i) => {
    const range = touched[i];
    const alone =
      range !== undefined &&
      range.last > range.first &&
      touched.every((other, j) => j === i || !other || other.last < range.first || other.first > range.last);
    if (alone) spans.set(range.first, { span: range.last - range.first + 1, line });
    else byColumn[columnOf(columns, centerX(line))]!.push(line);
  });
  const cells: TableRow = [];
  for (let column = 0; column < columns.length; column++) {
    const span = spans.get(column);
    if (span) {
      cells.push(spanCell(span.line.text, span.span, 1));
      column += span.span - 1;
    } else cells.push(cellText(byColumn[column]!));
  }
  return cells;
}

/**
 * The rows whose gutters define the columns: without a first row that has fewer cells than the rows
 * below it, since a heading over sub-columns ("Train" over two columns of numbers) bridges their gutter.
 */
function bodyRows(rows: Row[]): Row[] {
  if (rows.length < 3) return rows;
  const widest = Math.max(...rows.slice(1).map((row) => row.lines.length));
  return rows[0]!.lines.length < widest ? rows.slice(1) : rows;
}

/** One number of a cell: "8,757", "-0.7%", "$1,204", "(12.5)". */
const NUMBER = /^[-+−(]?[$€£¥]?\d[\d.,]*%?\)?$/;

/**
 * Numbers of neighbouring columns set closer than the gap that splits fragments come as one fragment
 * ("361 2,032"): split it into one pseudo-line per number, placed by character offset (digits are of
 * equal width in almost every font). Unless the table groups thousands with commas, not when a later
 * part is three digits alone: that may be a thousands group written with a space ("1 234").
 */
function splitNumbers(entry: Row['lines'][number], commaGrouped: boolean): Row['lines'] {
  const { line } = entry;
  const tokens = line.text.split(' ');
  if (tokens.length < 2 || !tokens.every((token) => NUMBER.test(token))) return [entry];
  if (!commaGrouped && tokens.slice(1).some((token) => /^\d{3}$/.test(token))) return [entry];
  const perChar = (line.x1 - line.x0) / line.text.length;
  let offset = 0;
  return tokens.map((token) => {
    const x0 = line.x0 + offset * perChar;
    offset += token.length + 1;
    return {
      line: { ...line, text: token, x0, x1: x0 + token.length * perChar },
      index: entry.index,
      part: true,
    };
  });
}

/** Sentences run on from one line to the next in this share of a prose column's line breaks. */
const MIN_PROSE_FLOW = 0.5;
/** A line that carries a sentence on has at least this many words (table cells are shorter). */
const MIN_FLOWING_WORDS = 4;

/**
 * Page columns of prose with short lines pass the word-count test, but their lines run on: a line of
 * several words without closing punctuation, continued below by a lower-case word. Table cells stacked
 * in a column almost never do that (cells that wrap inside a row add rows of fewer cells, not pairs).
 */
function flowsLikeProse(rows: Row[], columns: { x0: number; x1: number }[]): boolean {
  let pairs = 0;
  let flowing = 0;
  for (let column = 0; column < columns.length; column++) {
    const flow = columnFlow(rows, columns, column);
    pairs += flow.pairs;
    flowing += flow.flowing;
  }
  return pairs >= 3 && flowing >= pairs * MIN_PROSE_FLOW;
}

/** Two page columns: two wide columns of many rows of several words (a bibliography, say). */
const PAGE_COLUMN_SHARE = 0.35;
const PAGE_COLUMN_MIN_ROWS = 8;
const PAGE_COLUMN_MIN_MEAN_WORDS = 4;

/**
 * Two columns that each take more than a third of the width, over many rows of several words, are page
 * columns, even when their lines do not run on (references start most lines with a name). Two-column
 * tables put a narrow key beside its value.
 */
function looksLikePageColumns(
  rows: Row[],
  columns: { x0: number; x1: number }[],
  meanWords: number,
): boolean {
  if (columns.length !== 2 || rows.length < PAGE_COLUMN_MIN_ROWS || meanWords < PAGE_COLUMN_MIN_MEAN_WORDS)
    return false;
  const width = columns[1]!.x1 - columns[0]!.x0;
  return columns.every((column) => column.x1 - column.x0 >= PAGE_COLUMN_SHARE * width);
}

/** Vertically adjacent cells of one column, and how many of those pairs run on like prose. */
function columnFlow(
  rows: Row[],
  columns: { x0: number; x1: number }[],
  column: number,
): { pairs: number; flowing: number } {
  const result = { pairs: 0, flowing: 0 };
  let upper: TextLine | undefined;
  for (const row of rows) {
    const cell = row.lines.find(({ line }) => columnOf(columns, centerX(line)) === column)?.line;
    if (cell && upper) {
      result.pairs++;
      if (runsOn(upper, cell)) result.flowing++;
    }
    upper = cell;
  }
  return result;
}

function runsOn(upper: TextLine, lower: TextLine): boolean {
  return (
    wordCount(upper.text) >= MIN_FLOWING_WORDS &&
    /[\p{L},-]$/u.test(upper.text) &&
    /^\p{Ll}/u.test(lower.text)
  );
}

function wordCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

/** A page column of prose has long lines (headings and paragraph ends aside) that run on. */
const PROSE_COLUMN_MEDIAN_WORDS = 6;

/**
 * Split rows at a page gutter — whitespace no line crosses — with a page column of prose on one side
 * and rows of several cells (a table) on the other: the two sides are then looked at alone. The test
 * on the other side keeps tables with a long descriptive column whole (their short side has one cell
 * a row, not several).
 */
function splitAtProseGutter(run: Row[]): [Row[], Row[]] | undefined {
  const spans = gutterColumns(run);
  for (let i = 1; i < spans.length; i++) {
    const gutter = (spans[i - 1]!.x1 + spans[i]!.x0) / 2;
    const left = sideOf(run, (line) => line.x1 <= gutter);
    const right = sideOf(run, (line) => line.x0 >= gutter);
    for (const [prose, other] of [
      [left, right],
      [right, left],
    ] as const) {
      if (isProseColumn(prose) && other.some((row) => row.lines.length >= 2)) return [left, right];
    }
  }
  return undefined;
}

/**
 * The lines of one side, grouped into rows again: page-wide rows can chain two rows of one side through
 * a line of the other side that overlaps both.
 */
function sideOf(run: Row[], inside: (line: TextLine) => boolean): Row[] {
  return rowsOf(run.flatMap((row) => row.lines.filter(({ line }) => inside(line))));
}

/** Lines of one page column: mostly long (by the median), and running on from one to the next. */
function isProseColumn(rows: Row[]): boolean {
  const lines = rows.flatMap((row) => row.lines.map(({ line }) => line));
  if (lines.length < MIN_ROWS) return false;
  let flowing = 0;
  for (let i = 1; i < lines.length; i++) if (runsOn(lines[i - 1]!, lines[i]!)) flowing++;
  return (
    median(lines.map((line) => wordCount(line.text))) >= PROSE_COLUMN_MEDIAN_WORDS &&
    flowing >= (lines.length - 1) * MIN_PROSE_FLOW
  );
}

/**
 * Column extents from the whitespace shared by all rows: the x-ranges covered by any cell, merged;
 * each merged range is one column.
 */
function gutterColumns(rows: Row[]): { x0: number; x1: number }[] {
  const spans = rows.flatMap((row) => row.lines.map(({ line }) => ({ x0: line.x0, x1: line.x1 })));
  spans.sort((a, b) => a.x0 - b.x0);
  // A gutter is real whitespace: narrower gaps (a superscript beside its word) do not separate columns.
  const em = median(rows.flatMap((row) => row.lines.map(({ line }) => line.fontSize ?? height(line) * 0.8)));
  const minGutter = MIN_GUTTER_EM * (em || 10);
  const merged: { x0: number; x1: number }[] = [];
  for (const span of spans) {
    const last = merged[merged.length - 1];
    if (last && span.x0 < last.x1 + minGutter) last.x1 = Math.max(last.x1, span.x1);
    else merged.push({ ...span });
  }
  return merged;
}

function columnOf(columns: { x0: number; x1: number }[], x: number): number {
  let best = 0;
  let bestDistance = Number.POSITIVE_INFINITY;
  columns.forEach((column, i) => {
    const distance = x < column.x0 ? column.x0 - x : x > column.x1 ? x - column.x1 : 0;
    if (distance < bestDistance) {
      bestDistance = distance;
      best = i;
    }
  });
  return best;
}

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/**
 * The cells of lines already known to form a table (a layout model's Table region): rows by baseline,
 * columns by the shared gutters, however few rows there are.
 */
export function forcedTable(lines: readonly TextLine[]): TableRow[] {
  const rows = groupRows(lines, new Set());
  if (rows.length === 0) return [];
  const multi = rows.filter((row) => row.lines.length >= 2);
  const columns = gutterColumns(multi.length > 0 ? multi : rows);
  return rows.map((row) => {
    const byColumn: TextLine[][] = columns.map(() => []);
    for (const { line } of row.lines) byColumn[columnOf(columns, centerX(line))]!.push(line);
    return byColumn.map((columnLines) => cellText(columnLines));
  });
}
