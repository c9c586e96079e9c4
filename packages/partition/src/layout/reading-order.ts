import type { Box } from './types.js';

/**
 * Reading order of the blocks of one page, after Breuel's rules for multi-column layouts:
 * 1. of two blocks whose x-ranges overlap, the upper one comes first (reading down a column);
 * 2. a block entirely left of another comes first, unless some third block lying vertically between
 *    them spans both (a full-width figure or heading that separates the upper columns from the lower),
 *    or the other lies above it and straddles the gutter beside it (part of a centred header).
 * The partial order is sorted topologically; ties (and the rare cycle) are broken top-to-bottom,
 * left-to-right. Multi-column pages therefore read column by column, section by section.
 */

/** x-ranges overlapping by less than this (points) do not count as overlapping (ragged column edges). */
const OVERLAP_TOLERANCE = 2;
/** Columns are apart by at least this share of the width the blocks span (a gutter, not a word gap). */
const MIN_GUTTER_SHARE = 0.015;
/** Above this many blocks the quadratic rules are skipped for a plain top-to-bottom sort. */
const MAX_BLOCKS = 200;

export function readingOrder(boxes: readonly Box[]): number[] {
  const n = boxes.length;
  const byPosition = (a: number, b: number) => boxes[a]!.y0 - boxes[b]!.y0 || boxes[a]!.x0 - boxes[b]!.x0;
  const indices = Array.from({ length: n }, (_, i) => i);
  if (n <= 1 || n > MAX_BLOCKS) return indices.sort(byPosition);

  const minX = Math.min(...boxes.map((box) => box.x0));
  const maxX = Math.max(...boxes.map((box) => box.x1));
  const minGutter = MIN_GUTTER_SHARE * (maxX - minX);
  const successors: number[][] = Array.from({ length: n }, () => []);
  const incoming = new Array<number>(n).fill(0);
  const addEdge = (from: number, to: number) => {
    successors[from]!.push(to);
    incoming[to]!++;
  };
  for (let a = 0; a < n; a++) {
    for (let b = a + 1; b < n; b++) {
      const first = before(boxes, a, b, minGutter) ? a : before(boxes, b, a, minGutter) ? b : -1;
      if (first >= 0) addEdge(first, first === a ? b : a);
    }
  }

  // Kahn's algorithm, always taking the top-left-most block among those that are free.
  const order: number[] = [];
  const done = new Array<boolean>(n).fill(false);
  const ready = indices.filter((i) => incoming[i] === 0);
  while (order.length < n) {
    if (ready.length === 0) {
      // A cycle: release the top-left-most remaining block.
      const next = indices.filter((i) => !done[i]).sort(byPosition)[0]!;
      incoming[next] = 0;
      ready.push(next);
    }
    ready.sort(byPosition);
    const next = ready.shift()!;
    if (done[next]) continue;
    done[next] = true;
    order.push(next);
    for (const successor of successors[next]!) {
      incoming[successor]!--;
      if (incoming[successor] === 0 && !done[successor]) ready.push(successor);
    }
  }
  return order;
}

/** How far left of the column beside A a block must start to be no part of that column (its width share). */
const STRADDLE_SHARE = 0.25;

/** B starts well left of the column that runs next to A on its right, so B is in neither column. */
function straddlesGutterBeside(boxes: readonly Box[], A: Box, B: Box): boolean {
  let next: Box | undefined;
  for (const D of boxes) {
    if (D === A || D === B) continue;
    const beside = D.x0 >= A.x1 - OVERLAP_TOLERANCE && D.y0 < A.y1 && D.y1 > A.y0;
    if (beside && (!next || D.x0 < next.x0)) next = D;
  }
  return next !== undefined && B.x0 < next.x0 - STRADDLE_SHARE * (next.x1 - next.x0);
}

function before(boxes: readonly Box[], a: number, b: number, minGutter: number): boolean {
  const A = boxes[a]!;
  const B = boxes[b]!;
  const overlap = Math.min(A.x1, B.x1) - Math.max(A.x0, B.x0);
  // Blocks side by side without a gutter between them (the indent levels of a code listing, a short
  // line beside a longer one) are not columns: they read top to bottom.
  const gap = Math.max(A.x0, B.x0) - Math.min(A.x1, B.x1);
  if (overlap > OVERLAP_TOLERANCE || gap < minGutter) return A.y0 + A.y1 < B.y0 + B.y1;
  if (A.x1 > B.x0 + OVERLAP_TOLERANCE) return false;
  // A is left of B. A block B above A that straddles the gutter beside A (a centred line of an author
  // block) belongs to neither column: it comes first, like anything full-width above.
  if (B.y1 <= A.y0 && straddlesGutterBeside(boxes, A, B)) return false;
  // Otherwise A comes first unless a block between them vertically spans both.
  const top = Math.min(A.y1, B.y1);
  const bottom = Math.max(A.y0, B.y0);
  for (let c = 0; c < boxes.length; c++) {
    if (c === a || c === b) continue;
    const C = boxes[c]!;
    const between = C.y0 >= top - OVERLAP_TOLERANCE && C.y1 <= bottom + OVERLAP_TOLERANCE;
    if (between && C.x0 < A.x1 - OVERLAP_TOLERANCE && C.x1 > B.x0 + OVERLAP_TOLERANCE) return false;
  }
  return true;
}
