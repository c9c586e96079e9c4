/**
 * Word spaces for the PP-OCR recogniser. The Chinese+English model often drops the spaces between
 * English words; blank vertical runs in the line crop show where they were.
 */

/** Height of the crops the recogniser reads (the model's input height). */
const INPUT_HEIGHT = 48;

/**
 * A blank run this wide (in model pixels, the crop being 48 high) separates words. Letters of one word
 * are at most ~8 px apart at this scale; a word space (a third of the font size) ~15-20 px.
 */
const MIN_WORD_GAP = 11;

export interface BlankRun {
  /** Centre as a fraction of the crop width. */
  centre: number;
  /** Width in model pixels. */
  width: number;
}

/**
 * Blank vertical runs wider than MIN_WORD_GAP in a crop of the recogniser's input tensor (item `item` of
 * a batch `batchWidth` wide, of which the first `width` columns are the crop).
 */
export function blankColumnRuns(
  pixels: Float32Array,
  item: number,
  batchWidth: number,
  width: number,
): BlankRun[] {
  const plane = INPUT_HEIGHT * batchWidth;
  const base = item * 3 * plane;
  // Darkest value per column over the middle rows (edges may hold neighbours' descenders).
  const columnMin = new Float32Array(width).fill(1);
  let darkest = 1;
  let lightest = -1;
  for (let y = Math.floor(INPUT_HEIGHT * 0.1); y < Math.ceil(INPUT_HEIGHT * 0.9); y++) {
    for (let x = 0; x < width; x++) {
      const at = y * batchWidth + x;
      const value = (pixels[base + at]! + pixels[base + plane + at]! + pixels[base + 2 * plane + at]!) / 3;
      if (value < columnMin[x]!) columnMin[x] = value;
      if (value < darkest) darkest = value;
      if (value > lightest) lightest = value;
    }
  }
  if (lightest - darkest < 0.3) return []; // no contrast: nothing to measure
  const threshold = (darkest + lightest) / 2;
  const gaps: BlankRun[] = [];
  let runStart = -1;
  let seenInk = false;
  for (let x = 0; x <= width; x++) {
    const blank = x < width && columnMin[x]! > threshold;
    if (blank && runStart < 0) runStart = x;
    if (!blank) {
      // Runs before the first ink or after the last are margins, not word gaps.
      if (runStart >= 0 && seenInk && x < width && x - runStart >= MIN_WORD_GAP) {
        gaps.push({ centre: (runStart + x) / 2 / width, width: x - runStart });
      }
      runStart = -1;
      if (x < width) seenInk = true;
    }
  }
  return gaps;
}

/** Digits are drawn on equal widths, so a narrow one (1) stands in a wide blank: ask for more. */
const DIGIT_GAP_FACTOR = 1.7;
const NO_SPACE_BEFORE = /[,.:;!?%)\]}]/;
const NO_SPACE_AFTER = /[([{$]/;

/** Put a space between two characters that lie on either side of a word gap, unless one is there. */
export function insertWordSpaces(
  text: string,
  positions: readonly number[],
  gaps: readonly BlankRun[],
): { text: string; positions: number[] } {
  const characters = [...text];
  if (characters.length !== positions.length || gaps.length === 0) return { text, positions: [...positions] };
  let out = '';
  const outPositions: number[] = [];
  let gapIndex = 0;
  for (let i = 0; i < characters.length; i++) {
    const position = positions[i]!;
    const character = characters[i]!;
    while (gapIndex < gaps.length && gaps[gapIndex]!.centre < position) {
      const gap = gaps[gapIndex]!;
      const previous = characters[i - 1];
      if (i > 0 && positions[i - 1]! < gap.centre && isWordBreak(previous!, character, gap.width)) {
        out += ' ';
        outPositions.push(gap.centre);
      }
      gapIndex++;
    }
    out += character;
    outPositions.push(position);
  }
  return { text: out, positions: outPositions };
}

function isWordBreak(previous: string, next: string, gapWidth: number): boolean {
  if (previous === ' ' || next === ' ') return false;
  if (NO_SPACE_BEFORE.test(next) || NO_SPACE_AFTER.test(previous)) return false;
  if (/\d/.test(previous) && /\d/.test(next)) return gapWidth >= MIN_WORD_GAP * DIGIT_GAP_FACTOR;
  return true;
}
