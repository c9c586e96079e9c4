import type { Box, TextLine } from '../layout/types.js';

/** Geometry helpers shared by the built-in layout analyser, table structure and reading order. */

export function height(box: Box): number {
  return box.y1 - box.y0;
}

export function centreY(box: Box): number {
  return (box.y0 + box.y1) / 2;
}

export function centreX(box: Box): number {
  return (box.x0 + box.x1) / 2;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Share of `inner`'s area that lies inside `outer`. */
export function overlapShare(inner: Box, outer: Box): number {
  const width = Math.min(inner.x1, outer.x1) - Math.max(inner.x0, outer.x0);
  const tall = Math.min(inner.y1, outer.y1) - Math.max(inner.y0, outer.y0);
  const area = (inner.x1 - inner.x0) * (inner.y1 - inner.y0);
  if (width <= 0 || tall <= 0 || area <= 0) return 0;
  return (width * tall) / area;
}

export function union(boxes: readonly Box[]): Box {
  return {
    x0: Math.min(...boxes.map((b) => b.x0)),
    y0: Math.min(...boxes.map((b) => b.y0)),
    x1: Math.max(...boxes.map((b) => b.x1)),
    y1: Math.max(...boxes.map((b) => b.y1)),
  };
}

/**
 * Group text segments into visual rows: a segment joins the current row when its vertical centre lies
 * within the row's band. Rows come top to bottom, segments left to right.
 */
export function groupRows<T extends TextLine>(lines: readonly T[]): T[][] {
  const sorted = [...lines].sort((a, b) => centreY(a) - centreY(b));
  const rows: T[][] = [];
  let band: Box | undefined;
  for (const line of sorted) {
    const row = rows.at(-1);
    if (row && band && centreY(line) < band.y1 && centreY(line) > band.y0) {
      row.push(line);
      band = { ...band, y0: Math.min(band.y0, line.y0), y1: Math.max(band.y1, line.y1) };
      continue;
    }
    rows.push([line]);
    band = line;
  }
  return rows.map((row) => row.sort((a, b) => a.x0 - b.x0));
}
