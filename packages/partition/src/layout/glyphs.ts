import { attachAccents } from './accents.js';
import type { Box, Rule, TextLine } from './types.js';

/**
 * Characters → text lines, for sources that give single characters (a PDF text layer). Boxes are in
 * display space (origin top-left). OCR engines give lines directly and skip this step.
 */

export interface Glyph extends Box {
  /** The character (ligatures already expanded by `expandLigature`). */
  text: string;
  /** Font size in points. */
  size: number;
  bold: boolean;
  italic: boolean;
  fontName?: string | undefined;
  /** A space or line break stood in the text layer right before this character. */
  spaceBefore: boolean;
  /** The character is drawn rotated against the page (vertical text). */
  vertical?: boolean;
}

/** A gap wider than this share of the font size between two characters is a word space. */
const SPACE_GAP_EM = 0.18;
/** A gap wider than this (in ems) ends a line fragment: beyond it lie table columns or text columns. */
const SPLIT_GAP_EM = 1.0;
/** Characters this far left of the previous one (in ems) start a new fragment (text written out of order). */
const BACKWARD_EM = 0.5;
/** Two characters share a line when their vertical extents overlap by this share of the smaller one. */
const SAME_LINE_OVERLAP = 0.5;
const SCRIPT_OVERLAP = 0.25;

const LIGATURES: Record<string, string> = {
  '\ufb00': 'ff',
  '\ufb01': 'fi',
  '\ufb02': 'fl',
  '\ufb03': 'ffi',
  '\ufb04': 'ffl',
  '\ufb05': 'st',
  '\ufb06': 'st',
};

/** Presentation-form ligatures (ﬁ, ﬂ...) as the letters they stand for, so text search finds them. */
export function expandLigature(char: string): string {
  const code = char.charCodeAt(0);
  return code >= 0xfb00 && code <= 0xfb06 ? (LIGATURES[char] ?? char) : char;
}

function verticalOverlap(a: Box, b: Box): number {
  const overlap = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
  const smaller = Math.min(a.y1 - a.y0, b.y1 - b.y0);
  return smaller <= 0 ? 0 : overlap / smaller;
}

/**
 * Remove "fake bold": the same character drawn two or more times at nearly the same place (some
 * producers embolden text that way). A spatial hash keeps this linear in the number of characters.
 */
export function removeDuplicateGlyphs(glyphs: readonly Glyph[]): Glyph[] {
  // Key: a 4-point cell of the character's top-left corner and the low bits of its code, packed into
  // a small integer (V8 hashes those fastest). A copy lies in the same or a neighbouring cell; the
  // rare key collision between different characters only means one check is skipped.
  const cell = 4;
  const seen = new Map<number, Glyph>();
  const kept: Glyph[] = [];
  let previous: Glyph | undefined;
  for (const glyph of glyphs) {
    const before = previous;
    previous = glyph;
    const code = glyph.text.charCodeAt(0) & 1023;
    const fx = glyph.x0 / cell + 1;
    const fy = glyph.y0 / cell + 1;
    const cx = Math.floor(fx);
    const cy = Math.floor(fy);
    // A copy is at most half a cell away, so only the neighbours on the near side can hold it.
    const nx = fx - cx < 0.5 ? cx - 1 : cx + 1;
    const ny = fy - cy < 0.5 ? cy - 1 : cy + 1;
    let copy = false;
    for (const x of [cx, nx]) {
      for (const y of [cy, ny]) {
        const other = seen.get(((x & 1023) << 20) | ((y & 1023) << 10) | code);
        if (other !== undefined && other.text === glyph.text && isSamePlace(other, glyph)) copy = true;
      }
    }
    if (copy && !isLigaturePart(before, glyph)) continue;
    kept.push(glyph);
    const key = ((cx & 1023) << 20) | ((cy & 1023) << 10) | code;
    if (!seen.has(key)) seen.set(key, glyph);
  }
  return kept;
}

/**
 * PDFium reports a ligature glyph ("ﬀ", "ﬃ") as its letters, one after another with the ligature's box:
 * the second "f" of "ﬀ" is not a copy of the first.
 */
function isLigaturePart(before: Glyph | undefined, glyph: Glyph): boolean {
  return (
    before !== undefined &&
    before.x0 === glyph.x0 &&
    before.x1 === glyph.x1 &&
    before.y0 === glyph.y0 &&
    before.y1 === glyph.y1
  );
}

/** Copies are offset by less than 2 points (half a hash cell) and less than a fraction of the glyph. */
function isSamePlace(a: Glyph, b: Glyph): boolean {
  const width = Math.max(a.x1 - a.x0, b.x1 - b.x0, 0.5);
  const height = Math.max(a.y1 - a.y0, b.y1 - b.y0, 0.5);
  const dx = Math.abs(a.x0 - b.x0);
  const dy = Math.abs(a.y0 - b.y0);
  return dx < 2 && dy < 2 && dx < 0.4 * width && dy < 0.2 * height;
}

interface Fragment {
  glyphs: Glyph[];
  box: Box;
}

/**
 * Group characters (in content-stream order, which is the writing order within a line in almost every
 * PDF) into line fragments, split at wide gaps and at vertical ruling lines so that table cells and
 * text columns stay apart. Fragments of one line written out of order are joined afterwards.
 */
export function glyphsToLines(glyphs: readonly Glyph[], rules: readonly Rule[] = []): TextLine[] {
  const verticalRules = rules.filter((rule) => rule.x1 - rule.x0 < 3 && rule.y1 - rule.y0 > 3);
  const fragments: Fragment[] = [];
  let current: Fragment | undefined;
  for (const glyph of attachAccents(removeDuplicateGlyphs(glyphs))) {
    if (current && continues(current, glyph, verticalRules)) {
      current.glyphs.push(glyph);
      extend(current.box, glyph);
    } else {
      current = { glyphs: [glyph], box: { x0: glyph.x0, y0: glyph.y0, x1: glyph.x1, y1: glyph.y1 } };
      fragments.push(current);
    }
  }
  return joinFragments(fragments, verticalRules).map(toTextLine);
}

function extend(box: Box, other: Box): void {
  box.x0 = Math.min(box.x0, other.x0);
  box.y0 = Math.min(box.y0, other.y0);
  box.x1 = Math.max(box.x1, other.x1);
  box.y1 = Math.max(box.y1, other.y1);
}

function continues(fragment: Fragment, glyph: Glyph, verticalRules: readonly Rule[]): boolean {
  const last = fragment.glyphs[fragment.glyphs.length - 1]!;
  if (Boolean(last.vertical) !== Boolean(glyph.vertical)) return false;
  const em = Math.max(last.size, glyph.size, 1);
  if (glyph.vertical) {
    const overlap = Math.min(last.x1, glyph.x1) - Math.max(last.x0, glyph.x0);
    // Rotated text may run down (y grows) or up the page.
    const step = Math.min(Math.abs(glyph.y0 - last.y1), Math.abs(last.y0 - glyph.y1));
    return overlap > 0 && step < SPLIT_GAP_EM * em;
  }
  // Superscripts and subscripts (smaller type, raised or lowered) share less height with the line.
  const scripted = Math.min(last.size, glyph.size) < 0.8 * Math.max(last.size, glyph.size);
  if (verticalOverlap(last, glyph) < (scripted ? SCRIPT_OVERLAP : SAME_LINE_OVERLAP)) return false;
  const gap = glyph.x0 - last.x1;
  // Ligatures come out as several characters sharing one box, so "backwards" is measured from the
  // previous character's start, not its end.
  if (gap > SPLIT_GAP_EM * em || glyph.x0 < last.x0 - BACKWARD_EM * em) return false;
  return !ruleBetween(verticalRules, last.x1, glyph.x0, glyph);
}

function ruleBetween(verticalRules: readonly Rule[], left: number, right: number, span: Box): boolean {
  if (right - left < 0.5) return false;
  for (const rule of verticalRules) {
    const x = (rule.x0 + rule.x1) / 2;
    if (x > left && x < right && rule.y0 <= span.y1 && rule.y1 >= span.y0) return true;
  }
  return false;
}

/** Join fragments that sit on one line with a word-sized gap between them (out-of-order writing). */
function joinFragments(fragments: Fragment[], verticalRules: readonly Rule[]): Fragment[] {
  if (fragments.length < 2) return fragments;
  const order = [...fragments].sort((a, b) => a.box.y0 - b.box.y0 || a.box.x0 - b.box.x0);
  const result: Fragment[] = [];
  const open: Fragment[] = [];
  for (const fragment of order) {
    const first = fragment.glyphs[0]!;
    const target = first.vertical
      ? undefined
      : open.find((candidate) => {
          const last = candidate.glyphs[candidate.glyphs.length - 1]!;
          if (last.vertical || verticalOverlap(candidate.box, fragment.box) < 0.7) return false;
          const gap = fragment.box.x0 - candidate.box.x1;
          const em = Math.max(last.size, first.size, 1);
          return (
            gap > -0.2 * em &&
            gap < 0.6 * em &&
            !ruleBetween(verticalRules, candidate.box.x1, fragment.box.x0, fragment.box)
          );
        });
    if (target) {
      target.glyphs.push(...fragment.glyphs);
      extend(target.box, fragment.box);
      continue;
    }
    result.push(fragment);
    open.push(fragment);
    // Only fragments whose line can still be reached stay open.
    while (open.length > 0 && open[0]!.box.y1 < fragment.box.y0) open.shift();
  }
  return result;
}

function toTextLine(fragment: Fragment): TextLine {
  let text = '';
  let previous: Glyph | undefined;
  const fonts = new Map<string, number>();
  let boldChars = 0;
  let italicChars = 0;
  let sizeSum = 0;
  for (const glyph of fragment.glyphs) {
    if (previous) {
      const em = Math.max(previous.size, glyph.size, 1);
      const gap = glyph.vertical
        ? Math.min(Math.abs(glyph.y0 - previous.y1), Math.abs(previous.y0 - glyph.y1))
        : glyph.x0 - previous.x1;
      // A space in the text layer counts only where the characters do not touch: producers that draw
      // characters twice (fake bold) leave spurious spaces between overlapping copies.
      if ((glyph.spaceBefore && gap > 0.05 * em) || gap > SPACE_GAP_EM * em) text += ' ';
    }
    text += glyph.text;
    if (glyph.bold) boldChars++;
    if (glyph.italic) italicChars++;
    sizeSum += glyph.size;
    if (glyph.fontName) fonts.set(glyph.fontName, (fonts.get(glyph.fontName) ?? 0) + 1);
    previous = glyph;
  }
  const count = fragment.glyphs.length;
  let fontName: string | undefined;
  let most = 0;
  for (const [name, uses] of fonts) {
    if (uses > most) {
      most = uses;
      fontName = name;
    }
  }
  const line: TextLine = {
    ...fragment.box,
    text: text.replace(/\s+/g, ' ').trim().normalize('NFC'),
    fontSize: sizeSum / count,
    bold: boldChars * 2 > count,
    italic: italicChars * 2 > count,
    origin: 'text_layer',
  };
  if (fontName) line.fontName = fontName;
  if (fragment.glyphs[0]!.vertical) {
    line.vertical = true;
    const last = fragment.glyphs[fragment.glyphs.length - 1]!;
    line.verticalFlow = last.y0 >= fragment.glyphs[0]!.y0 ? 'down' : 'up';
  }
  return line;
}
