/**
 * Finding the tables of a worksheet. Sheets are sparse (a used range can claim a million rows and
 * 16,384 columns for a handful of cells), so everything here works on the non-empty cells only.
 * A region is a block of non-empty cells connected through their edges (merged ranges count as filled);
 * blocks whose rows overlap are one region, so spacer columns and holes do not split a table; only empty
 * rows separate tables. Regions come out in reading order (top row, then left column).
 */

export interface Merge {
  row: number;
  col: number;
  rows: number;
  cols: number;
}

export interface Region {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

/** Excel's widest sheet: keys of the form row × COLUMNS + col stay exact in a double. */
const COLUMNS = 16_384;
/** Merged ranges larger than this are not expanded cell by cell (they only matter at their corner). */
const MAX_EXPANDED_MERGE = 10_000;

/** The non-empty cells of a sheet, by row then column. */
export class SparseSheet {
  readonly rows = new Map<number, Map<number, string>>();

  set(row: number, col: number, text: string): void {
    if (text.trim() === '') return;
    let cells = this.rows.get(row);
    if (!cells) {
      cells = new Map();
      this.rows.set(row, cells);
    }
    cells.set(col, text);
  }

  get(row: number, col: number): string {
    return this.rows.get(row)?.get(col) ?? '';
  }

  /** Columns of a region that hold at least one non-empty cell, in order. */
  usedColumns(region: Region): number[] {
    const used = new Set<number>();
    for (let row = region.top; row <= region.bottom; row++) {
      for (const col of this.rows.get(row)?.keys() ?? []) {
        if (col >= region.left && col <= region.right) used.add(col);
      }
    }
    return [...used].sort((a, b) => a - b);
  }
}

export function findRegions(sheet: SparseSheet, merges: readonly Merge[] = []): Region[] {
  const filled = new Set<number>();
  for (const [row, cells] of sheet.rows) for (const col of cells.keys()) filled.add(row * COLUMNS + col);
  for (const merge of merges) {
    if (merge.rows * merge.cols > MAX_EXPANDED_MERGE) continue;
    for (let r = merge.row; r < merge.row + merge.rows; r++) {
      for (let c = merge.col; c < merge.col + merge.cols; c++) filled.add(r * COLUMNS + c);
    }
  }

  const seen = new Set<number>();
  const boxes: Region[] = [];
  const stack: number[] = [];
  for (const start of filled) {
    if (seen.has(start)) continue;
    seen.add(start);
    stack.push(start);
    const box: Region = { top: Infinity, left: Infinity, bottom: -1, right: -1 };
    while (stack.length > 0) {
      const key = stack.pop()!;
      const row = Math.floor(key / COLUMNS);
      const col = key - row * COLUMNS;
      box.top = Math.min(box.top, row);
      box.bottom = Math.max(box.bottom, row);
      box.left = Math.min(box.left, col);
      box.right = Math.max(box.right, col);
      const neighbours = [
        key - COLUMNS,
        key + COLUMNS,
        col > 0 ? key - 1 : -1,
        col < COLUMNS - 1 ? key + 1 : -1,
      ];
      for (const next of neighbours) {
        if (next >= 0 && filled.has(next) && !seen.has(next)) {
          seen.add(next);
          stack.push(next);
        }
      }
    }
    boxes.push(box);
  }
  return mergeRowOverlaps(boxes);
}

/**
 * Join regions whose row ranges overlap: spacer columns inside a table (common in financial sheets) and
 * labels beside a table make several components of what a reader sees as one table. Sorted by top row,
 * one sweep suffices.
 */
function mergeRowOverlaps(boxes: Region[]): Region[] {
  const sorted = [...boxes].sort((a, b) => a.top - b.top || a.left - b.left);
  const merged: Region[] = [];
  for (const box of sorted) {
    const current = merged.at(-1);
    if (current && box.top <= current.bottom) {
      current.bottom = Math.max(current.bottom, box.bottom);
      current.left = Math.min(current.left, box.left);
      current.right = Math.max(current.right, box.right);
    } else {
      merged.push({ ...box });
    }
  }
  return merged;
}

/** Rows of a region that hold at most one non-empty cell, counted from the top and from the bottom. */
export function singleCellEdges(sheet: SparseSheet, region: Region): { leading: number; trailing: number } {
  const isSingle = (row: number) => {
    let count = 0;
    for (const col of sheet.rows.get(row)?.keys() ?? [])
      if (col >= region.left && col <= region.right) count++;
    return count <= 1;
  };
  let leading = 0;
  while (region.top + leading <= region.bottom && isSingle(region.top + leading)) leading++;
  if (region.top + leading > region.bottom) return { leading, trailing: 0 };
  let trailing = 0;
  while (region.bottom - trailing > region.top + leading && isSingle(region.bottom - trailing)) trailing++;
  return { leading, trailing };
}
