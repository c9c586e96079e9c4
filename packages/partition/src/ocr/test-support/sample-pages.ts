import type { PageDrawing, TextBlock } from './text-image.js';

/**
 * A4 pages of known text, drawn at a given resolution, for OCR accuracy and speed measurements.
 * The prose is our own; lines are pre-wrapped so the expected text is exact.
 */
export const A4_INCHES = { width: 8.27, height: 11.69 };

const PROSE = [
  'The committee met on the third of March to review the annual budget and the staffing plan.',
  'Members agreed that the reserve fund should cover at least six months of operating costs.',
  'Revenue from membership fees rose by 4.2 percent, while grant income fell by 11 percent.',
  'The treasurer proposed moving part of the reserve into a fixed-term deposit at 3.1 percent.',
  'Two members asked for a written comparison of the options before the next meeting.',
  'Staff costs remain the largest item at 61 percent of total spending this year.',
  'The volunteer programme trained 48 new helpers, and 35 of them stayed for six months.',
  'Office rent will increase in July; the lease allows one renegotiation before renewal.',
  'A new accounting system was installed in January and the migration finished on time.',
  'Questions about the audit schedule were answered by the external auditor in writing.',
  'The board thanked the finance team for preparing the accounts three weeks early.',
  'Next year the committee will publish a quarterly summary on the members website.',
  'Travel expenses were lower than planned because most meetings were held online.',
  'The insurance policy was renewed with the same provider for a premium of 2,350 euros.',
  'Any member may request the full minutes by writing to the secretary before May 31.',
];

export interface SamplePage {
  drawing: PageDrawing;
  /** The page's text in reading order, one line per drawn line. */
  lines: string[];
}

/** A full A4 page: a title, then prose lines at `fontPt` points, at `dpi` pixels per inch. */
export function proseA4Page(dpi: number, options: { lineCount?: number; fontPt?: number } = {}): SamplePage {
  const px = (points: number) => (points * dpi) / 72;
  const width = Math.round(A4_INCHES.width * dpi);
  const height = Math.round(A4_INCHES.height * dpi);
  const fontSize = px(options.fontPt ?? 11);
  const lineCount = options.lineCount ?? 40;
  const title = 'Finance Committee Annual Report';
  const blocks: TextBlock[] = [{ text: title, x: px(72), y: px(90), fontSize: px(20), bold: true }];
  const lines = [title];
  for (let i = 0; i < lineCount; i++) {
    const text = PROSE[i % PROSE.length]!;
    // A blank line every five lines makes paragraphs, as on a real page.
    const y = px(130) + i * fontSize * 1.45 + Math.floor(i / 5) * fontSize;
    if (y > height - px(72)) break;
    blocks.push({ text, x: px(72), y, fontSize, family: 'DejaVu Serif' });
    lines.push(text);
  }
  return { drawing: { width, height, blocks }, lines };
}
