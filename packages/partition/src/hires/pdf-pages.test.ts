import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Element } from '../elements/element.js';
import { closeOcrEngines } from '../ocr/engines.js';
import { drawPageFile } from '../ocr/test-support/text-image.js';
import { partition } from '../pipeline/partition.js';

/**
 * PDFs through the OCR pipelines with the real PDF engine: page 1 is born digital (a text layer plus a
 * picture holding text), page 2 is a scan (only a picture).
 */
let pdf: Uint8Array;

beforeAll(async () => {
  const picture = await drawPageFile(
    {
      width: 1200,
      height: 300,
      blocks: [
        { text: 'Scanned Invoice Heading', x: 40, y: 80, fontSize: 48, bold: true },
        { text: 'This paragraph exists only as pixels in a picture.', x: 40, y: 180, fontSize: 32 },
      ],
    },
    'png',
  );
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  const image = await document.embedPng(picture);
  const digital = document.addPage([612, 792]);
  digital.drawText('Born digital text on the page says hello to everyone.', {
    x: 72,
    y: 700,
    size: 12,
    font,
  });
  digital.drawImage(image, { x: 72, y: 400, width: 450, height: 112.5 });
  document.addPage([612, 792]).drawImage(image, { x: 40, y: 500, width: 530, height: 132 });
  pdf = await document.save();
});

afterAll(closeOcrEngines);

const find = (elements: Element[], text: string, page: number) =>
  elements.find((e) => e.text === text && e.metadata.page_number === page);

describe('PDF pages through hi_res and ocr_only', () => {
  it('hi_res uses the text layer where it is good and OCR for pictures and scanned pages', async () => {
    const elements = await partition(
      { data: pdf, filename: 'mixed.pdf' },
      { strategy: 'hi_res', coordinates: true },
    );
    const digital = find(elements, 'Born digital text on the page says hello to everyone.', 1);
    expect(digital?.metadata).toMatchObject({ is_extracted: true, detection_origin: 'pdfium' });
    // 612 × 792 points rendered at the default 200 DPI.
    expect(digital?.metadata.coordinates).toMatchObject({
      system: 'PixelSpace',
      layout_width: 1700,
      layout_height: 2200,
    });
    for (const page of [1, 2]) {
      const ocr = find(elements, 'This paragraph exists only as pixels in a picture.', page);
      expect(ocr?.metadata).toMatchObject({ is_extracted: false, detection_origin: 'ppocr' });
      expect(find(elements, 'Scanned Invoice Heading', page)?.type).toBe('Title');
    }
  });

  it('ocr_only reads every page from pixels, at the requested resolution', async () => {
    const elements = await partition(
      { data: pdf, filename: 'mixed.pdf' },
      { strategy: 'ocr_only', coordinates: true, pdf_render_dpi: 150 },
    );
    const texts = elements.filter((e) => e.type !== 'PageBreak');
    expect(texts.map((e) => e.text)).toContain('Born digital text on the page says hello to everyone.');
    expect(texts.every((e) => e.metadata.is_extracted === false)).toBe(true);
    expect(texts[0]!.metadata.coordinates).toMatchObject({ layout_width: 1275, layout_height: 1650 });
  });
});
