import { isBulleted, isNumberedListItem } from '../../text/text-type.js';

/**
 * Plain text → blocks (paragraphs, list items, headings), undoing hard wrapping.
 *
 * Blank lines always separate blocks. Inside a run of non-blank lines, a line break is a wrap (the lines
 * are joined with a space) when one of these holds, and a real break otherwise:
 * - the line is "full": the first word of the next line would not have fitted within the text's wrap
 *   width (how text wrapped at 72 or 80 columns, or by a PDF extractor, looks); a line that ends a
 *   sentence counts as full only when it reaches the width, since paragraphs end with sentences;
 * - the line ends in a character that cannot end a paragraph ( , ; ( & / ) or in a word broken by a hyphen;
 * - the next line starts with a lower-case letter and the line does not end a sentence;
 * - the line is part of a list item and the next line is indented (a wrapped item or its continuation).
 * A line that starts a bullet or numbered item always starts a new block. So a signature, an address
 * or a list of short lines keeps one block per line, and wrapped prose becomes one paragraph.
 */
export function splitBlocks(text: string): string[] {
  const normalised = text.replace(/\r\n?/g, '\n').replace(/\f/g, '\n\n');
  const width = wrapWidth(normalised);
  const blocks: string[] = [];
  for (const paragraph of normalised.split(/\n[ \t\u00a0]*\n/)) {
    const lines = paragraph.split('\n').filter((line) => line.trim() !== '');
    let current: string[] = [];
    let inListItem = false;
    const flush = () => {
      const joined = current.join(' ').replace(/\s+/g, ' ').trim();
      if (joined !== '') blocks.push(joined);
      current = [];
    };
    lines.forEach((line, index) => {
      const startsItem = isListStart(line);
      if (startsItem) {
        flush();
        inListItem = true;
      } else if (index > 0 && !continues(lines[index - 1]!, line, width, inListItem)) {
        flush();
        inListItem = false;
      }
      current.push(line.trim());
    });
    flush();
  }
  return blocks;
}

function isListStart(line: string): boolean {
  return isBulleted(line) || isNumberedListItem(line);
}

/** Whether `next` continues the block that `line` is in (see splitBlocks). */
function continues(line: string, next: string, width: number | undefined, inListItem: boolean): boolean {
  const trimmed = line.trim();
  const nextTrimmed = next.trim();
  if (inListItem && /^[ \t]+/.test(next)) return true;
  // A hyphen or dash right after a word (a word broken across lines), or a comma-like character.
  if (/[,;(&/]$|\p{L}[-–—]$|\s[–—]$/u.test(trimmed)) return true;
  const endsSentence = /[.!?:。！？]["'”’)\]]*$/u.test(trimmed);
  if (/^\p{Ll}/u.test(nextTrimmed) && !endsSentence) return true;
  if (width !== undefined) {
    const firstWord = nextTrimmed.split(/\s+/, 1)[0] ?? '';
    // A line that ends a sentence must be all but exactly full: a short last line ends a paragraph.
    const room = endsSentence ? 1 : firstWord.length + 1;
    if (lineLength(line) + room > width) return true;
  }
  return false;
}

function lineLength(line: string): number {
  return line.replace(/\s+$/, '').length;
}

/**
 * The column at which the text was wrapped, or undefined when it was not wrapped: lines are then as
 * long as their paragraphs, and no line is "full". Evidence of wrapping is several lines whose lengths
 * bunch just under the longest typical line.
 */
export function wrapWidth(text: string): number | undefined {
  const lengths = text
    .split('\n')
    .map(lineLength)
    .filter((length) => length > 0)
    .sort((a, b) => a - b);
  if (lengths.length < 4) return undefined;
  const width = lengths[Math.floor((lengths.length - 1) * 0.9)]!;
  if (width < 30) return undefined;
  const nearWidth = lengths.filter((length) => length >= width * 0.85 && length <= width * 1.05).length;
  // Unwrapped text has a spread of paragraph lengths; wrapped text has many lines close to the width.
  return nearWidth >= 3 && nearWidth >= lengths.length * 0.25 ? width : undefined;
}
