import type { PartitionOptions, Strategy } from '../../options/partition-options.js';
import type { PdfDocument } from './engine.js';

/**
 * Strategy `auto` for PDFs (docs/pdf.md "Choosing a strategy"):
 * 1. table structure asked for (pdf_infer_table_structure) → hi_res;
 * 2. a usable text layer on the sampled pages → fast;
 * 3. otherwise (scans, or fonts without Unicode maps on enough pages) → hi_res, which reads the text
 *    layer where it is usable and OCRs the other pages.
 */

/** Pages sampled to judge the text layer: spread over the selection, at most this many. */
const SAMPLE_PAGES = 5;
/** A page with fewer printable characters has no text layer to speak of. */
const MIN_CHARS_PER_PAGE = 20;
/** Share of characters without a Unicode mapping beyond which the text layer is junk. */
const MAX_UNMAPPED_SHARE = 0.1;
/** Share of sampled pages that may lack text before the document counts as (partly) scanned. */
const MAX_TEXTLESS_SHARE = 0.2;

export interface TextLayerJudgement {
  usable: boolean;
  sampled: number;
  textless: number;
}

export function judgeTextLayer(document: PdfDocument, pages: readonly number[]): TextLayerJudgement {
  const sample = samplePages(pages);
  let textless = 0;
  for (const index of sample) {
    let chars = 0;
    let unmapped = 0;
    try {
      const stats = document.readPage(index).stats;
      chars = stats.chars;
      unmapped = stats.unmappedChars;
    } catch {
      // An unreadable page tells nothing about the text layer; the chosen strategy reports it.
      continue;
    }
    if (chars < MIN_CHARS_PER_PAGE || unmapped > MAX_UNMAPPED_SHARE * chars) textless++;
  }
  const usable = sample.length === 0 || textless <= MAX_TEXTLESS_SHARE * sample.length;
  return { usable, sampled: sample.length, textless };
}

function samplePages(pages: readonly number[]): number[] {
  if (pages.length <= SAMPLE_PAGES) return [...pages];
  const step = (pages.length - 1) / (SAMPLE_PAGES - 1);
  return [...new Set(Array.from({ length: SAMPLE_PAGES }, (_, i) => pages[Math.round(i * step)]!))];
}

export function chooseStrategy(
  requested: Strategy,
  options: Pick<PartitionOptions, 'pdf_infer_table_structure'>,
  judge: () => TextLayerJudgement,
): Exclude<Strategy, 'auto'> {
  if (requested !== 'auto') return requested;
  if (options.pdf_infer_table_structure) return 'hi_res';
  return judge().usable ? 'fast' : 'hi_res';
}
