import type { Box } from './types.js';

/** Small box helpers shared by the layout steps. Boxes are top-left origin, x0 < x1, y0 < y1. */

export function width(box: Box): number {
  return box.x1 - box.x0;
}

export function height(box: Box): number {
  return box.y1 - box.y0;
}

export function area(box: Box): number {
  return Math.max(0, width(box)) * Math.max(0, height(box));
}

export function union(boxes: readonly Box[]): Box {
  let x0 = Number.POSITIVE_INFINITY;
  let y0 = Number.POSITIVE_INFINITY;
  let x1 = Number.NEGATIVE_INFINITY;
  let y1 = Number.NEGATIVE_INFINITY;
  for (const box of boxes) {
    x0 = Math.min(x0, box.x0);
    y0 = Math.min(y0, box.y0);
    x1 = Math.max(x1, box.x1);
    y1 = Math.max(y1, box.y1);
  }
  return { x0, y0, x1, y1 };
}

/** Length of the overlap of the x-ranges (negative: the gap between them). */
export function xOverlap(a: Box, b: Box): number {
  return Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
}

/** Length of the overlap of the y-ranges (negative: the gap between them). */
export function yOverlap(a: Box, b: Box): number {
  return Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
}

export function intersectionArea(a: Box, b: Box): number {
  return Math.max(0, xOverlap(a, b)) * Math.max(0, yOverlap(a, b));
}

/** Share of `inner`'s area that lies inside `outer` (0..1). */
export function coverage(inner: Box, outer: Box): number {
  const own = area(inner);
  return own === 0 ? (contains(outer, inner) ? 1 : 0) : intersectionArea(inner, outer) / own;
}

export function contains(outer: Box, inner: Box, tolerance = 0): boolean {
  return (
    inner.x0 >= outer.x0 - tolerance &&
    inner.y0 >= outer.y0 - tolerance &&
    inner.x1 <= outer.x1 + tolerance &&
    inner.y1 <= outer.y1 + tolerance
  );
}

export function centerY(box: Box): number {
  return (box.y0 + box.y1) / 2;
}

export function centerX(box: Box): number {
  return (box.x0 + box.x1) / 2;
}

export function toBox(box: Box): Box {
  return { x0: box.x0, y0: box.y0, x1: box.x1, y1: box.y1 };
}
