import type { TableRow } from '../elements/table-html.js';
import { centerX, centerY } from './geometry.js';
import { cellText, type DetectedTable, spanCell } from './tables.js';
import type { Rule, TextLine } from './types.js';

/**
 * Tables drawn with ruling lines: horizontal and vertical rules that touch each other form a grid; the
 * distinct rule positions are the row and column edges; a missing rule segment between two grid cells
 * merges them (colspan/rowspan).
 */

/** Rules closer than this (points) are one rule; edges closer than this are one edge. */
const SNAP = 2;
/** A boundary between two cells exists when rules cover this share of it. */
const BOUNDARY_COVERAGE = 0.6;
const MAX_COLUMNS = 60;
const MAX_ROWS = 500;
/** Cells of a data table are short; more words than this per cell on average is layout. */
const MAX_MEAN_WORDS_PER_CELL = 30;

interface HRule {
  y: number;
  x0: number;
  x1: number;
}
interface VRule {
  x: number;
  y0: number;
  y1: number;
}

export function ruledTables(
  lines: readonly TextLine[],
  rules: readonly Rule[],
  consumed: Set<number>,
): DetectedTable[] {
  const { horizontal, vertical } = splitRules(rules);
  if (horizontal.length < 2 || vertical.length < 2) return [];
  const tables: DetectedTable[] = [];
  for (const component of components(horizontal, vertical)) {
    if (component.h.length < 2 || component.v.length < 2) continue;
    const table = gridTable(component.h, component.v, lines, consumed);
    if (table) tables.push(table);
  }
  return tables;
}

function splitRules(rules: readonly Rule[]): { horizontal: HRule[]; vertical: VRule[] } {
  const horizontal: HRule[] = [];
  const vertical: VRule[] = [];
  for (const rule of rules) {
    const w = rule.x1 - rule.x0;
    const h = rule.y1 - rule.y0;
    if (h <= 3 && w >= 6 && w > h) horizontal.push({ y: (rule.y0 + rule.y1) / 2, x0: rule.x0, x1: rule.x1 });
    else if (w <= 3 && h >= 6) vertical.push({ x: (rule.x0 + rule.x1) / 2, y0: rule.y0, y1: rule.y1 });
  }
  return { horizontal: mergeH(horizontal), vertical: mergeV(vertical) };
}

/** Join collinear pieces (dashed or segmented borders) into single rules. */
function mergeH(rules: HRule[]): HRule[] {
  rules.sort((a, b) => a.y - b.y || a.x0 - b.x0);
  const merged: HRule[] = [];
  for (const rule of rules) {
    const last = merged.find(
      (m) => Math.abs(m.y - rule.y) <= SNAP / 2 && rule.x0 <= m.x1 + SNAP && rule.x1 >= m.x0 - SNAP,
    );
    if (last) {
      last.x0 = Math.min(last.x0, rule.x0);
      last.x1 = Math.max(last.x1, rule.x1);
    } else merged.push({ ...rule });
  }
  return merged;
}

function mergeV(rules: VRule[]): VRule[] {
  rules.sort((a, b) => a.x - b.x || a.y0 - b.y0);
  const merged: VRule[] = [];
  for (const rule of rules) {
    const last = merged.find(
      (m) => Math.abs(m.x - rule.x) <= SNAP / 2 && rule.y0 <= m.y1 + SNAP && rule.y1 >= m.y0 - SNAP,
    );
    if (last) {
      last.y0 = Math.min(last.y0, rule.y0);
      last.y1 = Math.max(last.y1, rule.y1);
    } else merged.push({ ...rule });
  }
  return merged;
}

/** Groups of rules connected by intersections (union-find). */
function components(horizontal: HRule[], vertical: VRule[]): { h: HRule[]; v: VRule[] }[] {
  const parent = Array.from({ length: horizontal.length + vertical.length }, (_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]!]!;
      i = parent[i]!;
    }
    return i;
  };
  horizontal.forEach((h, i) => {
    vertical.forEach((v, j) => {
      if (v.x >= h.x0 - SNAP && v.x <= h.x1 + SNAP && h.y >= v.y0 - SNAP && h.y <= v.y1 + SNAP) {
        parent[find(i)] = find(horizontal.length + j);
      }
    });
  });
  const groups = new Map<number, { h: HRule[]; v: VRule[] }>();
  const group = (i: number) => {
    const root = find(i);
    let entry = groups.get(root);
    if (!entry) {
      entry = { h: [], v: [] };
      groups.set(root, entry);
    }
    return entry;
  };
  for (const [i, h] of horizontal.entries()) group(i).h.push(h);
  for (const [j, v] of vertical.entries()) group(horizontal.length + j).v.push(v);
  return [...groups.values()];
}

/** Distinct positions, snapped together. */
function edges(values: number[]): number[] {
  values.sort((a, b) => a - b);
  const result: number[] = [];
  for (const value of values) {
    if (result.length === 0 || value - result[result.length - 1]! > SNAP) result.push(value);
  }
  return result;
}

function covered(intervals: [number, number][], from: number, to: number): boolean {
  const length = to - from;
  if (length <= 0) return true;
  let sum = 0;
  for (const [a, b] of intervals) sum += Math.max(0, Math.min(b, to) - Math.max(a, from));
  return sum >= BOUNDARY_COVERAGE * length;
}

function gridTable(
  horizontal: HRule[],
  vertical: VRule[],
  lines: readonly TextLine[],
  consumed: Set<number>,
): DetectedTable | undefined {
  const x0 = Math.min(...horizontal.map((h) => h.x0), ...vertical.map((v) => v.x));
  const x1 = Math.max(...horizontal.map((h) => h.x1), ...vertical.map((v) => v.x));
  const y0 = Math.min(...vertical.map((v) => v.y0), ...horizontal.map((h) => h.y));
  const y1 = Math.max(...vertical.map((v) => v.y1), ...horizontal.map((h) => h.y));
  const columnEdges = edges([x0, x1, ...vertical.map((v) => v.x)]);
  const rowEdges = edges([y0, y1, ...horizontal.map((h) => h.y)]);
  const columns = columnEdges.length - 1;
  const rows = rowEdges.length - 1;
  if (columns < 2 || rows < 1 || columns > MAX_COLUMNS || rows > MAX_ROWS) return undefined;

  // Which lines fall in which grid cell.
  const cellLines: TextLine[][] = Array.from({ length: rows * columns }, () => []);
  const inside: number[] = [];
  lines.forEach((line, index) => {
    if (consumed.has(index)) return;
    const cx = centerX(line);
    const cy = centerY(line);
    if (cx < x0 || cx > x1 || cy < y0 || cy > y1) return;
    const column = locate(columnEdges, cx);
    const row = locate(rowEdges, cy);
    cellLines[row * columns + column]!.push(line);
    inside.push(index);
  });
  if (inside.length === 0) return undefined;

  // Merge neighbouring grid cells that no rule separates.
  const cellParent = Array.from({ length: rows * columns }, (_, i) => i);
  const find = (i: number): number => {
    while (cellParent[i] !== i) i = cellParent[i] = cellParent[cellParent[i]!]!;
    return i;
  };
  const verticalAt = (x: number) =>
    vertical.filter((v) => Math.abs(v.x - x) <= SNAP).map((v) => [v.y0, v.y1] as [number, number]);
  const horizontalAt = (y: number) =>
    horizontal.filter((h) => Math.abs(h.y - y) <= SNAP).map((h) => [h.x0, h.x1] as [number, number]);
  for (let c = 1; c < columns; c++) {
    const intervals = verticalAt(columnEdges[c]!);
    for (let r = 0; r < rows; r++) {
      if (!covered(intervals, rowEdges[r]!, rowEdges[r + 1]!)) {
        cellParent[find(r * columns + c)] = find(r * columns + c - 1);
      }
    }
  }
  for (let r = 1; r < rows; r++) {
    const intervals = horizontalAt(rowEdges[r]!);
    for (let c = 0; c < columns; c++) {
      if (!covered(intervals, columnEdges[c]!, columnEdges[c + 1]!)) {
        cellParent[find(r * columns + c)] = find((r - 1) * columns + c);
      }
    }
  }
  const tableRows = buildRows(rows, columns, find, cellLines);
  if (!tableRows) return undefined;
  const cellTexts = tableRows.flat().map((cell) => (typeof cell === 'string' ? cell : cell.text));
  const nonEmpty = cellTexts.filter((text) => text !== '');
  if (tableRows.length < 2 || nonEmpty.length < 2) return undefined;
  // A grid whose cells hold paragraphs is page layout drawn as a table (columns of a newsletter, a
  // boxed form of prose): its text is read as text, in columns, not as cells.
  const meanWords = nonEmpty.reduce((sum, text) => sum + text.split(/\s+/).length, 0) / nonEmpty.length;
  if (meanWords > MAX_MEAN_WORDS_PER_CELL) return undefined;
  for (const index of inside) consumed.add(index);
  const firstRowLines = cellLines.slice(0, columns).flat();
  const headerRows = firstRowLines.length > 0 && firstRowLines.every((line) => line.bold) ? 1 : 0;
  return { x0, y0, x1, y1, rows: tableRows, headerRows, method: 'ruled' };
}

function locate(edgeList: number[], value: number): number {
  for (let i = 1; i < edgeList.length; i++) if (value <= edgeList[i]!) return i - 1;
  return edgeList.length - 2;
}

/**
 * Rows of cells with spans. Each merged group must be a rectangle; when rules are too irregular for
 * that, the cells are not merged. Rows whose cells are all empty (gaps between double borders) and
 * columns that are empty everywhere are dropped.
 */
function buildRows(
  rows: number,
  columns: number,
  find: (i: number) => number,
  cellLines: TextLine[][],
): TableRow[] | undefined {
  const extent = new Map<number, { r0: number; c0: number; r1: number; c1: number; lines: TextLine[] }>();
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < columns; c++) {
      const root = find(r * columns + c);
      const entry = extent.get(root) ?? { r0: r, c0: c, r1: r, c1: c, lines: [] };
      entry.r0 = Math.min(entry.r0, r);
      entry.c0 = Math.min(entry.c0, c);
      entry.r1 = Math.max(entry.r1, r);
      entry.c1 = Math.max(entry.c1, c);
      entry.lines.push(...cellLines[r * columns + c]!);
      extent.set(root, entry);
    }
  }
  let rectangular = true;
  for (const [root, e] of extent) {
    for (let r = e.r0; r <= e.r1 && rectangular; r++) {
      for (let c = e.c0; c <= e.c1; c++) if (find(r * columns + c) !== root) rectangular = false;
    }
  }
  const usedRows = new Set<number>();
  const usedColumns = new Set<number>();
  for (const e of extent.values()) {
    if (e.lines.length === 0) continue;
    for (let r = e.r0; r <= e.r1; r++) usedRows.add(r);
    for (let c = e.c0; c <= e.c1; c++) usedColumns.add(c);
  }
  const rowIndex = [...usedRows].sort((a, b) => a - b);
  const columnIndex = [...usedColumns].sort((a, b) => a - b);
  if (columnIndex.length < 2) return undefined;
  const result: TableRow[] = [];
  for (const r of rowIndex) {
    const row: TableRow = [];
    for (const c of columnIndex) {
      if (!rectangular) {
        row.push(cellText(cellLines[r * columns + c]!));
        continue;
      }
      const e = extent.get(find(r * columns + c))!;
      const firstRow = rowIndex.find((x) => x >= e.r0)!;
      const firstColumn = columnIndex.find((x) => x >= e.c0)!;
      if (r !== firstRow || c !== firstColumn) continue;
      const rowspan = rowIndex.filter((x) => x >= e.r0 && x <= e.r1).length;
      const colspan = columnIndex.filter((x) => x >= e.c0 && x <= e.c1).length;
      row.push(spanCell(cellText(e.lines), colspan, rowspan));
    }
    result.push(row);
  }
  return result;
}
