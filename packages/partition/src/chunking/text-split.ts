/**
 * Splitting one text that is longer than the hard limit into pieces that fit, and the overlap carried
 * between pieces. Pieces are exact slices of the text (`text.slice(start, end)`), so offsets such as link
 * positions can be mapped onto them.
 *
 * Where a piece ends, in order of preference (only boundaries in the second half of the window count
 * for the first three, so a piece is never cut short to half its size just to end on a nicer boundary):
 *   1. a blank line (paragraphs inside code or pre-formatted text),
 *   2. a sentence end (". " before a capital, a digit or an opening quote; CJK 。！？),
 *   3. a line break,
 *   4. the last whitespace that fits,
 *   5. nowhere: a single word longer than the limit is cut at the limit.
 *
 * Overlap: the next piece starts with the last whole words of the previous piece, at most `overlap`
 * characters. When the last word alone is longer than `overlap`, no overlap is carried, except after a
 * cut inside a word (5.), where the last `overlap` characters are carried as they are. When the carried
 * words would leave room only for a mid-word cut, the overlap is dropped for that piece instead.
 */

export interface TextPiece {
  text: string;
  /** Offset of the piece in the split text. */
  start: number;
  end: number;
}

interface Cut {
  /** End of the piece (exclusive), trailing whitespace excluded. */
  end: number;
  /** Start of the text after the boundary (first non-whitespace character). */
  next: number;
  /** True when the cut is inside a word. */
  hard: boolean;
}

const SENTENCE_END = new Set(['.', '!', '?', '…']);
const CJK_SENTENCE_END = new Set(['。', '！', '？']);
const CLOSERS = new Set(['"', "'", '”', '’', ')', ']', '»']);
const SENTENCE_START = /[\p{Lu}\p{Lt}\p{N}"'“‘«([¿¡]/u;

/** Same set as the regular expression class \s, without a regular expression call per character. */
function isSpace(char: string | undefined): boolean {
  if (char === undefined) return false;
  const code = char.charCodeAt(0);
  if (code === 32 || (code >= 9 && code <= 13)) return true;
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/**
 * Split `text` into pieces of at most `maxChars` characters.
 * `carriedPrefix`: length of a prefix that is itself overlap from earlier text (overlap_all); a piece must
 * contain more than that, and the prefix may be dropped like any overlap.
 */
export function splitText(text: string, maxChars: number, overlap = 0, carriedPrefix = 0): TextPiece[] {
  const pieces: TextPiece[] = [];
  let start = 0;
  // -- text before `fresh` was already in an earlier piece (overlap) --
  let fresh = Math.min(carriedPrefix, text.length);
  while (text.length - start > maxChars) {
    let cut = findCut(text, start, fresh, maxChars);
    if (cut === undefined && fresh > start) {
      // -- the carried words leave room only for a mid-word cut: start this piece without them --
      start = firstNonSpace(text, fresh);
      continue;
    }
    cut ??= { end: start + maxChars, next: start + maxChars, hard: true };
    pieces.push({ text: text.slice(start, cut.end), start, end: cut.end });
    fresh = cut.next;
    start = overlapStart(text, start, cut, overlap);
  }
  if (start < text.length) pieces.push({ text: text.slice(start), start, end: text.length });
  return pieces;
}

/** The best boundary for a piece starting at `start`: see the preference list above. */
function findCut(text: string, start: number, fresh: number, maxChars: number): Cut | undefined {
  const limit = start + maxChars;
  const half = start + Math.ceil(maxChars / 2);
  let lastSpace: Cut | undefined;
  let lineBreak: Cut | undefined;
  let sentence: Cut | undefined;
  // -- a boundary at `limit` itself still fits: the piece is text[start, limit) --
  for (let position = Math.min(limit, text.length - 1); position > fresh; position--) {
    // -- below half only the last whitespace matters, and it is already known --
    if (position < half && lastSpace) break;
    const char = text[position]!;
    if (!sentence && position >= half && position < limit && CJK_SENTENCE_END.has(char)) {
      sentence = { end: position + 1, next: firstNonSpace(text, position + 1), hard: false };
    }
    if (!isSpace(char) || isSpace(text[position - 1])) continue;
    // -- `position` is the first whitespace character of a run --
    const cut: Cut = { end: position, next: firstNonSpace(text, position), hard: false };
    lastSpace ??= cut;
    if (position < half) continue;
    const run = text.slice(position, cut.next);
    if (run.includes('\n\n')) return cut;
    if (!sentence && endsSentence(text, position, cut.next)) sentence = cut;
    if (!lineBreak && run.includes('\n')) lineBreak = cut;
  }
  return sentence ?? lineBreak ?? lastSpace;
}

function endsSentence(text: string, end: number, next: number): boolean {
  let last = end - 1;
  while (last > 0 && CLOSERS.has(text[last]!)) last--;
  if (!SENTENCE_END.has(text[last]!)) return false;
  const following = text[next];
  return following !== undefined && SENTENCE_START.test(following);
}

function firstNonSpace(text: string, from: number): number {
  let index = from;
  while (index < text.length && isSpace(text[index])) index++;
  return index;
}

/** Where the next piece starts: the last whole words of the piece that fit in `overlap`, or `cut.next`. */
function overlapStart(text: string, pieceStart: number, cut: Cut, overlap: number): number {
  if (overlap <= 0) return cut.next;
  const from = Math.max(pieceStart + 1, cut.end - overlap);
  if (cut.hard) return Math.min(firstNonSpace(text, from), cut.end);
  for (let index = from; index < cut.end; index++) {
    if (!isSpace(text[index]) && isSpace(text[index - 1])) return index;
  }
  return cut.next;
}

/** The last whole words of `text` that fit in `overlap` characters (overlap_all prefix); may be empty. */
export function overlapTail(text: string, overlap: number): string {
  if (overlap <= 0 || text.length === 0) return '';
  if (text.length <= overlap) return text;
  for (let index = text.length - overlap; index < text.length; index++) {
    if (!isSpace(text[index]) && isSpace(text[index - 1])) return text.slice(index);
  }
  return '';
}
