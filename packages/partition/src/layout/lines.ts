import { SYMBOL_FONT_BULLETS } from '../text/text-type.js';
import { yOverlap } from './geometry.js';
import type { TextLine } from './types.js';

/**
 * Clean-up of text lines before blocks are built, for both inputs (text layer and OCR):
 * - a list marker drawn apart from its text ("•" or "3." then a tab stop) is joined to the text;
 * - OCR lines of one visual line split into words are joined when they nearly touch.
 */

/** A fragment that is only a list marker: a bullet (Symbol-font ones included), "1.", "a)", "(iv)", "12". */
const MARKER_ONLY = new RegExp(
  `^(?:[•●○◦▪▫■□‣⁃∙◆◇►▸▹➢➤✓✔✗✘*·\\-–—${SYMBOL_FONT_BULLETS}]|\\(?\\d{1,3}[.)]?|\\(?[a-z][.)]|\\(?[ivxlc]{1,6}[.)])$`,
  'i',
);
/** A marker may stand this many ems left of its text (tab stops of list indents). */
const MARKER_GAP_EM = 4;

export function isListMarker(text: string): boolean {
  return MARKER_ONLY.test(text.trim());
}

export function assembleLines(lines: readonly TextLine[]): TextLine[] {
  const sorted = [...lines]
    .filter((line) => line.text.trim() !== '')
    .sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
  const consumed = new Set<number>();
  // Output by index of the line each one starts from. A marker drawn a hair lower than its text comes
  // after it in `sorted`: joining then takes the text's output back out, so nothing is emitted twice.
  const output = new Map<number, TextLine>();
  for (let i = 0; i < sorted.length; i++) {
    if (consumed.has(i)) continue;
    let line = sorted[i]!;
    while (isListMarker(line.text) || (line.origin === 'ocr' && line.text.length > 0)) {
      const next = nextOnSameLine(sorted, i, line, consumed);
      if (next === undefined) break;
      const candidate = output.get(next) ?? sorted[next]!;
      const em = Math.max(line.fontSize ?? height(line), candidate.fontSize ?? height(candidate), 1);
      const gap = candidate.x0 - line.x1;
      const joinMarker = isListMarker(line.text) && gap < MARKER_GAP_EM * em;
      const joinOcrWords = line.origin === 'ocr' && candidate.origin === 'ocr' && gap < 0.8 * em;
      if (!joinMarker && !joinOcrWords) break;
      consumed.add(next);
      output.delete(next);
      line = joinLines(line, candidate);
    }
    output.set(i, line);
  }
  return [...output.values()];
}

function height(line: TextLine): number {
  return line.y1 - line.y0;
}

/** The nearest line to the right of `line` that shares its baseline. */
function nextOnSameLine(
  sorted: TextLine[],
  from: number,
  line: TextLine,
  consumed: Set<number>,
): number | undefined {
  let best: number | undefined;
  for (let j = 0; j < sorted.length; j++) {
    if (j === from || consumed.has(j)) continue;
    const other = sorted[j]!;
    if (other.y0 > line.y1) break;
    if (other.x0 < line.x1 - 1) continue;
    if (yOverlap(line, other) < 0.5 * Math.min(height(line), height(other))) continue;
    if (best === undefined || other.x0 < sorted[best]!.x0) best = j;
  }
  return best;
}

function joinLines(left: TextLine, right: TextLine): TextLine {
  const joined: TextLine = {
    ...right,
    x0: Math.min(left.x0, right.x0),
    y0: Math.min(left.y0, right.y0),
    x1: Math.max(left.x1, right.x1),
    y1: Math.max(left.y1, right.y1),
    text: `${left.text} ${right.text}`,
  };
  if (left.confidence !== undefined && right.confidence !== undefined) {
    joined.confidence = Math.min(left.confidence, right.confidence);
  }
  return joined;
}

/** Fragments of one row further apart than this (in ems) are never joined. */
const MAX_JOIN_GAP_EM = 4;
/** Fragments overlapping by more than this (in ems) are not parts of one line. */
const MAX_OVERLAP_EM = 0.3;
/** Rows this many line heights above or below are the neighbourhood that shows a column gutter. */
const GUTTER_NEIGHBOURHOOD = 3;

/**
 * Join fragments of one row that a wide gap separated (an icon or a tab stop inside a line) unless the
 * gap is a column gutter: a gutter shows as a gap at the same place in the neighbouring rows, while an
 * incidental gap does not. Runs after table detection, which needs the fragments apart.
 */
export function joinRowFragments(lines: readonly TextLine[]): TextLine[] {
  const rows = groupIntoRows(lines);
  const gapsByRow = rows.map((row) => {
    const gaps: [number, number][] = [];
    for (let i = 1; i < row.length; i++) gaps.push([row[i - 1]!.x1, row[i]!.x0]);
    return gaps;
  });
  const result: TextLine[] = [];
  rows.forEach((row, r) => {
    let current = row[0]!;
    for (let i = 1; i < row.length; i++) {
      const next = row[i]!;
      const em = Math.max(current.fontSize ?? height(current), next.fontSize ?? height(next), 1);
      const sizeRatio = (current.fontSize ?? em) / (next.fontSize ?? em);
      const gap = next.x0 - current.x1;
      const mid = (current.x1 + next.x0) / 2;
      const joinable =
        // Side by side only: rows are grouped across the whole page, so where two columns' baselines
        // drift apart a row can hold two stacked lines of one column (overlapping in x), never one line.
        gap > -MAX_OVERLAP_EM * em &&
        gap < MAX_JOIN_GAP_EM * em &&
        sizeRatio < 1.3 &&
        sizeRatio > 1 / 1.3 &&
        !isGutter(rows, gapsByRow, r, mid, em);
      if (joinable) {
        current = joinLines(current, next);
      } else {
        result.push(current);
        current = next;
      }
    }
    result.push(current);
  });
  return result;
}

function groupIntoRows(lines: readonly TextLine[]): TextLine[][] {
  const sorted = [...lines].sort((a, b) => (a.y0 + a.y1) / 2 - (b.y0 + b.y1) / 2);
  const rows: { lines: TextLine[]; y0: number; y1: number }[] = [];
  for (const line of sorted) {
    const row = rows[rows.length - 1];
    if (
      row &&
      Math.min(row.y1, line.y1) - Math.max(row.y0, line.y0) > 0.5 * Math.min(row.y1 - row.y0, height(line))
    ) {
      row.lines.push(line);
      row.y0 = Math.min(row.y0, line.y0);
      row.y1 = Math.max(row.y1, line.y1);
    } else rows.push({ lines: [line], y0: line.y0, y1: line.y1 });
  }
  return rows.map((row) => row.lines.sort((a, b) => a.x0 - b.x0));
}

function isGutter(
  rows: TextLine[][],
  gapsByRow: [number, number][][],
  r: number,
  mid: number,
  em: number,
): boolean {
  const y = rows[r]![0]!.y0;
  for (let other = Math.max(0, r - 6); other < Math.min(rows.length, r + 7); other++) {
    if (other === r) continue;
    const row = rows[other]!;
    if (Math.abs(row[0]!.y0 - y) > GUTTER_NEIGHBOURHOOD * em * 1.5) continue;
    if (gapsByRow[other]!.some(([a, b]) => a <= mid + 1 && b >= mid - 1)) return true;
  }
  return false;
}
