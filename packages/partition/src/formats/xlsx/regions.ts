/**
 * Finding the tables of a worksheet: a region is a block of non-empty cells connected through their
 * edges (merged ranges count as filled); blocks whose rows overlap are one region, so a table with
 * spacer columns or holes stays whole. Regions come out in reading order (top row, then left column).
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

export function findRegions(grid: readonly (readonly string[])[], merges: readonly Merge[] = []): Region[] {
  const height = grid.length;
  const width = Math.max(0, ...grid.map((row) => row.length));
  if (height === 0 || width === 0) return [];
  const filled = new Uint8Array(height * width);
  grid.forEach((row, r) => {
    row.forEach((cell, c) => {
      if (cell.trim() !== '') filled[r * width + c] = 1;
    });
  });
  for (const merge of merges) {
    for (let r = merge.row; r < Math.min(height, merge.row + merge.rows); r++) {
      for (let c = merge.col; c < Math.min(width, merge.col + merge.cols); c++) filled[r * width + c] = 1;
    }
  }

  const label = new Int32Array(height * width).fill(-1);
  const boxes: Region[] = [];
  const stack: number[] = [];
  for (let start = 0; start < filled.length; start++) {
    if (!filled[start] || label[start]! >= 0) continue;
    const id = boxes.length;
    const box: Region = { top: height, left: width, bottom: -1, right: -1 };
    label[start] = id;
    stack.push(start);
    while (stack.length > 0) {
      const index = stack.pop()!;
      const r = Math.floor(index / width);
      const c = index - r * width;
      box.top = Math.min(box.top, r);
      box.bottom = Math.max(box.bottom, r);
      box.left = Math.min(box.left, c);
      box.right = Math.max(box.right, c);
      const neighbours = [
        r > 0 ? index - width : -1,
        r < height - 1 ? index + width : -1,
        c > 0 ? index - 1 : -1,
        c < width - 1 ? index + 1 : -1,
      ];
      for (const next of neighbours) {
        if (next >= 0 && filled[next] && label[next]! < 0) {
          label[next] = id;
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
 * labels beside a table make several components of what a reader sees as one table. Only empty rows
 * separate tables. Sorted by top row, one sweep suffices.
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

/** Rows of a region that hold exactly one non-empty cell, counted from the top and from the bottom. */
export function singleCellEdges(
  grid: readonly (readonly string[])[],
  region: Region,
): { leading: number; trailing: number } {
  const isSingle = (r: number) => {
    let count = 0;
    for (let c = region.left; c <= region.right; c++) if ((grid[r]?.[c] ?? '').trim() !== '') count++;
    return count <= 1;
  };
  let leading = 0;
  while (region.top + leading <= region.bottom && isSingle(region.top + leading)) leading++;
  if (region.top + leading > region.bottom) return { leading, trailing: 0 };
  let trailing = 0;
  while (region.bottom - trailing > region.top + leading && isSingle(region.bottom - trailing)) trailing++;
  return { leading, trailing };
}
