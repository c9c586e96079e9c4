/**
 * Plane geometry for text detection: connected regions of a binary map, their convex hull and
 * minimum-area (rotated) rectangle. Written for small regions (text lines), so simple algorithms win.
 */

export interface Point {
  x: number;
  y: number;
}

/** A rotated rectangle: centre, unit vector along the long side (pointing right), and sizes. */
export interface RotatedRect {
  cx: number;
  cy: number;
  /** Unit vector along `width`, with ux >= 0 so that text reads left to right. */
  ux: number;
  uy: number;
  width: number;
  height: number;
}

/** One 8-connected region of set pixels: per row, the leftmost and rightmost pixel, plus its extent. */
export interface Region {
  pixelCount: number;
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  /** Row y → [leftmost x, rightmost x] of the region's pixels on that row (the hull only needs these). */
  rowSpans: Map<number, [number, number]>;
}

/**
 * Label 8-connected regions of `mask` (1 = set), up to `maxRegions`, largest first is NOT guaranteed:
 * regions come in scan order, as a detector expects.
 */
export function connectedRegions(
  mask: Uint8Array,
  width: number,
  height: number,
  maxRegions: number,
): Region[] {
  const visited = new Uint8Array(mask.length);
  const regions: Region[] = [];
  const stack: number[] = [];
  for (let start = 0; start < mask.length && regions.length < maxRegions; start++) {
    if (!mask[start] || visited[start]) continue;
    const region: Region = {
      pixelCount: 0,
      minX: width,
      minY: height,
      maxX: -1,
      maxY: -1,
      rowSpans: new Map(),
    };
    visited[start] = 1;
    stack.push(start);
    while (stack.length > 0) {
      const index = stack.pop()!;
      const x = index % width;
      const y = (index - x) / width;
      region.pixelCount++;
      if (x < region.minX) region.minX = x;
      if (x > region.maxX) region.maxX = x;
      if (y < region.minY) region.minY = y;
      if (y > region.maxY) region.maxY = y;
      const span = region.rowSpans.get(y);
      if (!span) region.rowSpans.set(y, [x, x]);
      else {
        if (x < span[0]) span[0] = x;
        if (x > span[1]) span[1] = x;
      }
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          if (nx < 0 || nx >= width || (dx === 0 && dy === 0)) continue;
          const next = ny * width + nx;
          if (mask[next] && !visited[next]) {
            visited[next] = 1;
            stack.push(next);
          }
        }
      }
    }
    regions.push(region);
  }
  return regions;
}

/** Corner points of the pixels at each row's ends: the region's outline as far as a hull cares. */
export function regionOutline(region: Region): Point[] {
  const points: Point[] = [];
  for (const [y, [left, right]] of region.rowSpans) {
    points.push({ x: left, y }, { x: left, y: y + 1 }, { x: right + 1, y }, { x: right + 1, y: y + 1 });
  }
  return points;
}

function cross(o: Point, a: Point, b: Point): number {
  return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

/** Convex hull (Andrew's monotone chain), counter-clockwise in a y-up frame. */
export function convexHull(input: readonly Point[]): Point[] {
  const points = [...input].sort((a, b) => a.x - b.x || a.y - b.y);
  if (points.length < 3) return points;
  const lower: Point[] = [];
  for (const p of points) {
    while (lower.length >= 2 && cross(lower[lower.length - 2]!, lower[lower.length - 1]!, p) <= 0)
      lower.pop();
    lower.push(p);
  }
  const upper: Point[] = [];
  for (let i = points.length - 1; i >= 0; i--) {
    const p = points[i]!;
    while (upper.length >= 2 && cross(upper[upper.length - 2]!, upper[upper.length - 1]!, p) <= 0)
      upper.pop();
    upper.push(p);
  }
  return [...lower.slice(0, -1), ...upper.slice(0, -1)];
}

/**
 * The smallest-area rectangle enclosing a convex polygon. One side of the optimum lies on a hull edge,
 * so trying every edge direction is exact; hulls of text lines have few vertices.
 */
export function minAreaRect(hull: readonly Point[]): RotatedRect {
  let best: RotatedRect | undefined;
  let bestArea = Number.POSITIVE_INFINITY;
  const count = hull.length;
  for (let i = 0; i < count; i++) {
    const a = hull[i]!;
    const b = hull[(i + 1) % count]!;
    const length = Math.hypot(b.x - a.x, b.y - a.y);
    if (length === 0) continue;
    const ux = (b.x - a.x) / length;
    const uy = (b.y - a.y) / length;
    let minU = Number.POSITIVE_INFINITY;
    let maxU = Number.NEGATIVE_INFINITY;
    let minV = Number.POSITIVE_INFINITY;
    let maxV = Number.NEGATIVE_INFINITY;
    for (const p of hull) {
      const u = p.x * ux + p.y * uy;
      const v = -p.x * uy + p.y * ux;
      if (u < minU) minU = u;
      if (u > maxU) maxU = u;
      if (v < minV) minV = v;
      if (v > maxV) maxV = v;
    }
    const area = (maxU - minU) * (maxV - minV);
    if (area < bestArea) {
      bestArea = area;
      const cu = (minU + maxU) / 2;
      const cv = (minV + maxV) / 2;
      best = orient({
        cx: cu * ux - cv * uy,
        cy: cu * uy + cv * ux,
        ux,
        uy,
        width: maxU - minU,
        height: maxV - minV,
      });
    }
  }
  if (best) return best;
  // Degenerate hull (a point or a line of points): an axis-aligned box around it.
  const xs = hull.map((p) => p.x);
  const ys = hull.map((p) => p.y);
  const minX = Math.min(...xs);
  const minY = Math.min(...ys);
  return orient({
    cx: (minX + Math.max(...xs)) / 2,
    cy: (minY + Math.max(...ys)) / 2,
    ux: 1,
    uy: 0,
    width: Math.max(...xs) - minX,
    height: Math.max(...ys) - minY,
  });
}

/** Make `width` the long side and point the width axis rightwards (text reads left to right). */
function orient(rect: RotatedRect): RotatedRect {
  let { ux, uy, width, height } = rect;
  if (height > width) {
    [width, height] = [height, width];
    [ux, uy] = [-uy, ux];
  }
  if (ux < 0 || (ux === 0 && uy < 0)) {
    ux = -ux;
    uy = -uy;
  }
  return { ...rect, ux, uy, width, height };
}

/** The four corners, clockwise on screen from top-left (y down): TL, TR, BR, BL. */
export function rectCorners(rect: RotatedRect): [Point, Point, Point, Point] {
  const hx = (rect.ux * rect.width) / 2;
  const hy = (rect.uy * rect.width) / 2;
  // Perpendicular pointing "down" the text (y grows downwards on screen).
  const vx = (-rect.uy * rect.height) / 2;
  const vy = (rect.ux * rect.height) / 2;
  return [
    { x: rect.cx - hx - vx, y: rect.cy - hy - vy },
    { x: rect.cx + hx - vx, y: rect.cy + hy - vy },
    { x: rect.cx + hx + vx, y: rect.cy + hy + vy },
    { x: rect.cx - hx + vx, y: rect.cy - hy + vy },
  ];
}
