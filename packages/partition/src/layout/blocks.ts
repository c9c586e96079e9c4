import { isBulleted, isNumberedListItem } from '../text/text-type.js';
import { height, union, xOverlap } from './geometry.js';
import { joinWrapped } from './tables.js';
import type { Box, Rule, TextLine } from './types.js';

/**
 * Lines → blocks (paragraphs, headings, list items). A line continues the block above it when it is
 * close below it, overlaps it horizontally, has the same font size and weight, and does not start a
 * list item or a new indented paragraph. Lines are visited top to bottom; columns stay apart because
 * their lines do not overlap horizontally.
 */

export interface TextBlock extends Box {
  lines: TextLine[];
  text: string;
  /** Mean font size weighted by text length. */
  fontSize: number;
  bold: boolean;
  italic: boolean;
  /** The block starts with a bullet or a list number. */
  listItem: boolean;
  /** Two or more lines all set in a monospaced font: a code listing, its line breaks and indents kept. */
  code: boolean;
}

/** Lines further apart than this (in font sizes) are separate blocks. */
const MAX_LINE_GAP_EM = 0.75;
/** Font sizes differing by more than this share are separate blocks (a heading above its text). */
const SIZE_TOLERANCE = 0.12;
/**
 * OCR sizes come from box heights, which swing with ascenders and descenders (a line of "the autumn
 * market and ask" is a fifth shorter than one with a "g" and a "p" in it): a wider tolerance.
 */
const OCR_SIZE_TOLERANCE = 0.3;
/** A line starting this many ems right of the block's left edge begins an indented paragraph. */
const INDENT_EM = 0.8;
/** A line ending this share of the block width short of its right edge can end a paragraph. */
const SHORT_LINE = 0.15;

export function buildBlocks(lines: readonly TextLine[], rules: readonly Rule[] = []): TextBlock[] {
  const sorted = [...lines].sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
  const horizontalRules = rules.filter((rule) => rule.y1 - rule.y0 <= 3 && rule.x1 - rule.x0 > 6);
  const blocks: Building[] = [];
  let open: Building[] = [];
  for (const line of sorted) {
    const em = lineEm(line);
    open = open.filter((block) => line.y0 - lastLine(block).y1 <= MAX_LINE_GAP_EM * em * 2);
    let best: Building | undefined;
    let bestGap = Number.POSITIVE_INFINITY;
    for (const block of open) {
      const gap = line.y0 - lastLine(block).y1;
      if (gap < bestGap && continuesBlock(block, line, horizontalRules)) {
        best = block;
        bestGap = gap;
      }
    }
    if (best) {
      best.lines.push(line);
      best.box = union([best.box, line]);
    } else {
      const block: Building = { lines: [line], box: { x0: line.x0, y0: line.y0, x1: line.x1, y1: line.y1 } };
      blocks.push(block);
      open.push(block);
    }
  }
  return blocks.map(finishBlock);
}

interface Building {
  lines: TextLine[];
  box: Box;
}

function lastLine(block: Building): TextLine {
  return block.lines[block.lines.length - 1]!;
}

function lineEm(line: TextLine): number {
  return Math.max(line.fontSize ?? height(line) * 0.8, 1);
}

/** A bullet, or a list number with its punctuation ("3.", "b)", "(iv)"); bare numbers are not enough. */
export function startsListItem(text: string): boolean {
  const trimmed = text.trim();
  return isBulleted(trimmed) || isNumberedListItem(trimmed);
}

/**
 * A line that starts with the mark the line above uses between items ("Keywords: A · B · C" then
 * "· D · E") continues that series; it does not start a list item.
 */
function continuesInlineSeries(above: string, line: string): boolean {
  const mark = line.trimStart()[0];
  return (mark === '·' || mark === '•') && above.includes(` ${mark} `);
}

function continuesBlock(block: Building, line: TextLine, horizontalRules: readonly Rule[]): boolean {
  const last = lastLine(block);
  const first = block.lines[0]!;
  const em = Math.max(lineEm(line), lineEm(last));
  const gap = line.y0 - last.y1;
  if (gap > MAX_LINE_GAP_EM * em || gap < -0.5 * height(line)) return false;
  // Code: a block of monospaced lines goes on with monospaced lines whatever their indents, and with
  // nothing else. (Typewriter type inside prose, such as e-mail addresses, follows the usual rules.)
  if (block.lines.every(isMonospaced)) {
    if (!isMonospaced(line)) return false;
    return line.x0 >= block.box.x0 - 0.5 * em && xOverlap(block.box, line) > 0;
  }
  if (xOverlap(block.box, line) <= 0) return false;
  const lastSize = lineEm(last);
  const tolerance = line.origin === 'ocr' || last.origin === 'ocr' ? OCR_SIZE_TOLERANCE : SIZE_TOLERANCE;
  if (Math.abs(lineEm(line) - lastSize) > tolerance * lastSize) return false;
  if (Boolean(line.bold) !== Boolean(last.bold)) return false;
  if (startsListItem(line.text) && !continuesInlineSeries(last.text, line.text)) return false;
  const listBlock = startsListItem(first.text);
  if (listBlock) {
    // Continuation lines of a list item hang under its text, right of the marker.
    if (line.x0 < first.x0 - 0.5 * em) return false;
  } else {
    const alignedLeft = Math.abs(line.x0 - block.box.x0) <= INDENT_EM * em;
    const centred = Math.abs((line.x0 + line.x1) / 2 - (block.box.x0 + block.box.x1) / 2) <= em;
    if (!alignedLeft && !centred && line.x0 > block.box.x0) return false;
    // A short line ending a sentence, then a line at the left edge: a new paragraph without spacing.
    const blockWidth = block.box.x1 - block.box.x0;
    const endsShort = last.x1 < block.box.x1 - SHORT_LINE * blockWidth && /[.!?:]["'”’)]?$/.test(last.text);
    if (block.lines.length > 1 && endsShort && !centred) return false;
    if (block.lines.length > 1 && line.x0 > block.box.x0 + INDENT_EM * em && !centred) return false;
  }
  for (const rule of horizontalRules) {
    const y = (rule.y0 + rule.y1) / 2;
    if (y > last.y1 - 1 && y < line.y0 + 1 && xOverlap(rule, line) > 0) return false;
  }
  return true;
}

/** Monospaced (typewriter) faces: code listings, and in papers also inline URLs and e-mail addresses. */
const MONOSPACED =
  /mono|courier|consol|menlo|inconsolata|typewriter|cmtt|lucidaconsole|andale|sourcecode|firacode/i;

function isMonospaced(line: TextLine): boolean {
  return line.fontName !== undefined && MONOSPACED.test(line.fontName.replace(/[\s_-]/g, ''));
}

/** Papers set e-mail addresses and URLs in typewriter type too; a stack of those is not code. */
function isAddressLine(line: TextLine): boolean {
  return /@|^(?:https?:\/\/|www\.)/i.test(line.text) && line.text.split(/\s+/).length <= 3;
}

/** A listing's lines with their indents, in spaces of the listing's own character width. */
function codeText(lines: readonly TextLine[], x0: number): string {
  const widths = lines
    .filter((line) => line.text.length > 0)
    .map((line) => (line.x1 - line.x0) / line.text.length)
    .sort((a, b) => a - b);
  const charWidth = widths[Math.floor(widths.length / 2)] || 1;
  return lines
    .map((line) => ' '.repeat(Math.max(0, Math.round((line.x0 - x0) / charWidth))) + line.text)
    .join('\n');
}

function finishBlock(block: Building): TextBlock {
  const code =
    block.lines.length >= 2 && block.lines.every(isMonospaced) && !block.lines.every(isAddressLine);
  let text = '';
  let weighted = 0;
  let characters = 0;
  for (const line of block.lines) {
    text = joinWrapped(text, line.text);
    const length = Math.max(1, line.text.length);
    weighted += lineEm(line) * length;
    characters += length;
  }
  return {
    ...block.box,
    lines: block.lines,
    text: code ? codeText(block.lines, block.box.x0) : text.trim(),
    fontSize: weighted / characters,
    bold: block.lines.every((line) => line.bold),
    italic: block.lines.every((line) => line.italic),
    listItem: !code && startsListItem(block.lines[0]!.text),
    code,
  };
}
