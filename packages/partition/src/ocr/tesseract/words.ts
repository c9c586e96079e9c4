import type { Box } from '../../layout/types.js';

/**
 * Tesseract returns whole lines that may run across table columns or page columns. Cutting a line where
 * the gap between two words is wider than this many line heights yields word groups like the ones
 * PP-OCR's detector finds, which is what column and table detection expect.
 */
const GAP_IN_LINE_HEIGHTS = 1.2;

export function splitAtGaps<W extends { bbox: Box }>(words: readonly W[]): W[][] {
  const groups: W[][] = [];
  let current: W[] = [];
  for (const word of words) {
    const previous = current.at(-1);
    if (previous) {
      const height = Math.max(previous.bbox.y1 - previous.bbox.y0, word.bbox.y1 - word.bbox.y0, 1);
      if (word.bbox.x0 - previous.bbox.x1 > height * GAP_IN_LINE_HEIGHTS) {
        groups.push(current);
        current = [];
      }
    }
    current.push(word);
  }
  if (current.length > 0) groups.push(current);
  return groups;
}
