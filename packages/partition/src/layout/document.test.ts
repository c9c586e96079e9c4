import { describe, expect, it } from 'vitest';
import { layoutDocument } from './document.js';
import type { PageInput, TextLine } from './types.js';

/** OCR-style input: lines in pixels (200 DPI page), font size estimated from the line height. */
const ocr = (text: string, x0: number, y0: number, width: number, height = 30): TextLine => ({
  text,
  x0,
  y0,
  x1: x0 + width,
  y1: y0 + height,
  fontSize: height * 0.8,
  confidence: 0.93,
  origin: 'ocr',
});

function scannedPage(withRegions: boolean): PageInput {
  const page: PageInput = {
    pageNumber: 1,
    width: 1700,
    height: 2200,
    system: 'PixelSpace',
    lines: [
      ocr('Inspection Report', 200, 200, 700, 60),
      ocr('The inspection of the north warehouse found no damage to the roof or walls.', 200, 320, 1300),
      ocr('Repairs are planned for the loading dock before the winter season starts.', 200, 360, 1250),
      ocr('Item', 200, 500, 120),
      ocr('Status', 700, 500, 150),
      ocr('Roof', 200, 545, 100),
      ocr('Good', 700, 545, 100),
      ocr('Dock', 200, 590, 100),
      ocr('Repair', 700, 590, 130),
    ],
  };
  if (withRegions) {
    page.regions = [
      { label: 'Section-header', probability: 0.91, x0: 190, y0: 190, x1: 920, y1: 270 },
      { label: 'Text', probability: 0.88, x0: 190, y0: 310, x1: 1510, y1: 400 },
      { label: 'Table', probability: 0.8, x0: 190, y0: 490, x1: 900, y1: 630 },
    ];
  }
  return page;
}

describe('layoutDocument (one layout module, two inputs)', () => {
  it('types OCR lines by the heuristics, with PixelSpace coordinates and the OCR origin', () => {
    const drafts = layoutDocument([scannedPage(false)], { ocrOrigin: 'ppocr' });
    const content = drafts.filter((d) => d.type !== 'PageBreak');
    expect(content.map((d) => [d.type, d.text])).toEqual([
      ['Title', 'Inspection Report'],
      [
        'NarrativeText',
        'The inspection of the north warehouse found no damage to the roof or walls. Repairs are planned for the loading dock before the winter season starts.',
      ],
      ['Table', 'Item Status\nRoof Good\nDock Repair'],
    ]);
    expect(content[0]?.metadata).toMatchObject({
      page_number: 1,
      detection_origin: 'ppocr',
      is_extracted: false,
      coordinates: { system: 'PixelSpace', layout_width: 1700, layout_height: 2200 },
    });
    expect(drafts.at(-1)?.type).toBe('PageBreak');
  });

  it('lets layout-model regions decide the types and group the lines', () => {
    const drafts = layoutDocument([scannedPage(true)]).filter((d) => d.type !== 'PageBreak');
    expect(drafts.map((d) => d.type)).toEqual(['Title', 'NarrativeText', 'Table']);
    expect(drafts[0]?.metadata?.detection_class_prob).toBe(0.91);
    expect(drafts[2]?.metadata?.text_as_html).toBe(
      '<table><tbody><tr><td>Item</td><td>Status</td></tr><tr><td>Roof</td><td>Good</td></tr><tr><td>Dock</td><td>Repair</td></tr></tbody></table>',
    );
    const plain = layoutDocument([scannedPage(true)], { tableStructure: false });
    expect(plain.find((d) => d.type === 'Table')?.metadata?.text_as_html).toBeUndefined();
  });
});
