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

export interface RuleDetection {
  rules: Rule[];
  /** The ink runs that make up the rules, to paint them out exactly (a skewed rule's box holds text). */
  runs: { direction: 'horizontal' | 'vertical'; line: number; start: number; end: number }[];
}

export function detectRules(image: RgbaImage): RuleDetection {
  const { width, height } = image;
  const ink = inkMask(image);
  const horizontal = linkRuns(ink, width, height, 'horizontal').filter((g) =>
    isRule(g.box.x1 - g.box.x0, g.box.y1 - g.box.y0, width),
  );
  const vertical = linkRuns(ink, width, height, 'vertical').filter((g) =>
    isRule(g.box.y1 - g.box.y0, g.box.x1 - g.box.x0, height),
  );
  return {
    rules: [...horizontal, ...vertical].map((g) => g.box),
    runs: [
      ...horizontal.flatMap((g) => g.runs.map((run) => ({ direction: 'horizontal' as const, ...run }))),
      ...vertical.flatMap((g) => g.runs.map((run) => ({ direction: 'vertical' as const, ...run }))),
    ],
  };
}

/** A copy of the image with the rules' ink painted white (one pixel of margin for anti-aliasing). */
export function eraseRules(image: RgbaImage, detection: RuleDetection): RgbaImage {
  const data = new Uint8Array(image.data);
  const paint = (x: number, y: number) => {
    if (x >= 0 && y >= 0 && x < image.width && y < image.height)
      data.fill(255, (y * image.width + x) * 4, (y * image.width + x) * 4 + 4);
  };
  for (const run of detection.runs) {
    for (let i = run.start - 1; i <= run.end; i++) {
      for (let side = -1; side <= 1; side++) {
        if (run.direction === 'horizontal') paint(i, run.line + side);
        else paint(run.line + side, i);
      }
    }
  }
  return { data, width: image.width, height: image.height };
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
): { box: Rule; runs: Run[] }[] {
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
  const groups = new Map<
    number,
    { lineMin: number; lineMax: number; start: number; end: number; runs: Run[] }
  >();
  runs.forEach((run, index) => {
    const root = find(index);
    const group = groups.get(root);
    if (!group)
      groups.set(root, {
        lineMin: run.line,
        lineMax: run.line + 1,
        start: run.start,
        end: run.end,
        runs: [run],
      });
    else {
      group.lineMin = Math.min(group.lineMin, run.line);
      group.lineMax = Math.max(group.lineMax, run.line + 1);
      group.start = Math.min(group.start, run.start);
      group.end = Math.max(group.end, run.end);
      group.runs.push(run);
    }
  });
  return [...groups.values()].map((group) => ({
    runs: group.runs,
    box:
      direction === 'horizontal'
        ? { x0: group.start, x1: group.end, y0: group.lineMin, y1: group.lineMax }
        : { x0: group.lineMin, x1: group.lineMax, y0: group.start, y1: group.end },
  }));
}
