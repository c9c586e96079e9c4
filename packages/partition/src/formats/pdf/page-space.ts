/**
 * PDF user space (origin bottom-left, y up, possibly offset or negative, page /Rotate applied when the
 * page is shown) → the page as a reader sees it: origin TOP-LEFT, y down, in points, rotation applied.
 * Every box this service reports for PDFs is in this display space, so that the text layer, ruling
 * lines, images and rendered pixels (points × dpi / 72) all line up.
 */

export interface PageSpace {
  /** Display width and height in points (swapped for pages rotated by 90° or 270°). */
  width: number;
  height: number;
  /** Map a user-space point to display space. */
  toDisplay(x: number, y: number): [number, number];
  /** Quarter turns clockwise applied to the page (0-3), from /Rotate. */
  quarterTurns: number;
}

/**
 * @param box the visible page box in user space (PDFium's page bounding box: crop box ∩ media box)
 * @param quarterTurns /Rotate divided by 90
 */
export function pageSpace(
  box: { left: number; bottom: number; right: number; top: number },
  quarterTurns: number,
): PageSpace {
  const left = Math.min(box.left, box.right);
  const right = Math.max(box.left, box.right);
  const bottom = Math.min(box.bottom, box.top);
  const top = Math.max(box.bottom, box.top);
  const w = right - left;
  const h = top - bottom;
  const turns = ((quarterTurns % 4) + 4) % 4;
  // Unrotated, origin top-left: u = x - left, v = top - y. Each quarter turn (clockwise, as /Rotate
  // turns the page for display) maps (u, v) to (height - v, u) of the previous orientation.
  const toDisplay: (x: number, y: number) => [number, number] =
    turns === 0
      ? (x, y) => [x - left, top - y]
      : turns === 1
        ? (x, y) => [y - bottom, x - left]
        : turns === 2
          ? (x, y) => [right - x, y - bottom]
          : (x, y) => [top - y, right - x];
  const rotated = turns % 2 === 1;
  return { width: rotated ? h : w, height: rotated ? w : h, toDisplay, quarterTurns: turns };
}

/** Map a user-space rectangle to a display-space box (x0 < x1, y0 < y1). */
export function rectToDisplay(
  space: PageSpace,
  left: number,
  bottom: number,
  right: number,
  top: number,
): { x0: number; y0: number; x1: number; y1: number } {
  const [ax, ay] = space.toDisplay(left, bottom);
  const [bx, by] = space.toDisplay(right, top);
  return { x0: Math.min(ax, bx), y0: Math.min(ay, by), x1: Math.max(ax, bx), y1: Math.max(ay, by) };
}
