import type { Rule } from '../layout/types.js';
import type { RgbaImage } from '../ocr/types.js';

/**
 * Ruling lines found in page pixels: table borders and separators of scans and rendered pages. A rule
 * is a long, thin run of dark pixels; runs on neighbouring rows that overlap are one line, which keeps
 * thick and slightly skewed rules whole. Text never makes runs this long (letters are short strokes).
 */

/** Pixels darker than this (0..255 luma) are ink. */
const INK_THRESHOLD = 140;
/** Runs shorter than this are parts of letters. */
const MIN_FRAGMENT = 24;
/** A rule is at least this share of the page's side long... */
const MIN_RULE_SHARE = 0.04;
/** ...and at most this thick relative to its length (a skewed rule drifts a little). */
const MAX_THICKNESS_RATIO = 0.06;

export function detectRules(image: RgbaImage): Rule[] {
  const { width, height } = image;
  const ink = inkMask(image);
  const horizontal = linkRuns(ink, width, height, 'horizontal');
  const vertical = linkRuns(ink, width, height, 'vertical');
  return [
    ...horizontal.filter((r) => isRule(r.x1 - r.x0, r.y1 - r.y0, width)),
    ...vertical.filter((r) => isRule(r.y1 - r.y0, r.x1 - r.x0, height)),
  ];
}

function isRule(length: number, thickness: number, side: number): boolean {
  return (
    length >= Math.max(MIN_FRAGMENT * 2, side * MIN_RULE_SHARE) &&
    thickness <= Math.max(8, length * MAX_THICKNESS_RATIO)
  );
}

function inkMask(image: RgbaImage): Uint8Array {
  const pixels = image.width * image.height;
  const mask = new Uint8Array(pixels);
  const { data } = image;
  for (let i = 0; i < pixels; i++) {
    const luma = (data[i * 4]! * 77 + data[i * 4 + 1]! * 150 + data[i * 4 + 2]! * 29) >> 8;
    mask[i] = luma < INK_THRESHOLD ? 1 : 0;
  }
  return mask;
}

interface Run {
  line: number;
  start: number;
  end: number;
}

/**
 * Runs of ink along rows (horizontal) or columns (vertical), one pixel gaps bridged, linked with
 * overlapping runs on the next row/column into connected groups; returns each group's box.
 */
function linkRuns(
  ink: Uint8Array,
  width: number,
  height: number,
  direction: 'horizontal' | 'vertical',
): Rule[] {
  const lines = direction === 'horizontal' ? height : width;
  const length = direction === 'horizontal' ? width : height;
  const at =
    direction === 'horizontal'
      ? (line: number, i: number) => ink[line * width + i]!
      : (line: number, i: number) => ink[i * width + line]!;
  const runs: Run[] = [];
  const parent: number[] = [];
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]!]!;
      i = parent[i]!;
    }
    return i;
  };
  let previous: number[] = [];
  for (let line = 0; line < lines; line++) {
    const current: number[] = [];
    let i = 0;
    while (i < length) {
      if (!at(line, i)) {
        i++;
        continue;
      }
      const start = i;
      let end = i;
      // Extend while ink continues, bridging single-pixel breaks (scan noise, anti-aliasing).
      while (i < length && (at(line, i) || (i + 1 < length && at(line, i + 1)))) {
        if (at(line, i)) end = i;
        i++;
      }
      if (end - start + 1 >= MIN_FRAGMENT) {
        const index = runs.length;
        runs.push({ line, start, end: end + 1 });
        parent.push(index);
        current.push(index);
        for (const other of previous) {
          const run = runs[other]!;
          if (run.start < end + 1 && start < run.end) parent[find(index)] = find(other);
        }
      }
    }
    previous = current;
  }
  const boxes = new Map<number, { lineMin: number; lineMax: number; start: number; end: number }>();
  runs.forEach((run, index) => {
    const root = find(index);
    const box = boxes.get(root);
    if (!box) boxes.set(root, { lineMin: run.line, lineMax: run.line + 1, start: run.start, end: run.end });
    else {
      box.lineMin = Math.min(box.lineMin, run.line);
      box.lineMax = Math.max(box.lineMax, run.line + 1);
      box.start = Math.min(box.start, run.start);
      box.end = Math.max(box.end, run.end);
    }
  });
  return [...boxes.values()].map((box) =>
    direction === 'horizontal'
      ? { x0: box.start, x1: box.end, y0: box.lineMin, y1: box.lineMax }
      : { x0: box.lineMin, x1: box.lineMax, y0: box.start, y1: box.end },
  );
}
