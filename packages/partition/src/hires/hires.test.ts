import { describe, expect, it } from 'vitest';
import type { TextLine } from '../layout/types.js';
import { degrade, drawPage } from '../ocr/test-support/text-image.js';
import type { OcrEngine, RgbaImage } from '../ocr/types.js';
import { partitionOptionSet } from '../options/partition-options.js';
import type { AnalysedPage } from './analyse-page.js';
import { analysePage } from './analyse-page.js';
import { analyseLayout } from './builtin-analyser.js';
import { deskew, estimateSkewDegrees } from './deskew.js';
import { resolveLayoutAnalyser } from './layout-model.js';
import { elementsFromPages } from './partition-pages.js';
import { detectRules } from './rules.js';
import { judgeTextLayer } from './text-quality.js';

const line = (
  text: string,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  origin: TextLine['origin'] = 'ocr',
): TextLine => ({
  text,
  x0,
  y0,
  x1,
  y1,
  origin,
  fontSize: (y1 - y0) * 0.9,
});

/** An OCR engine that "reads" fixed lines, so page logic is tested without models. */
function fakeOcr(lines: TextLine[]): OcrEngine & { calls: RgbaImage[] } {
  const calls: RgbaImage[] = [];
  return {
    name: 'fake-ocr',
    calls,
    async recognize(image) {
      calls.push(image);
      return lines;
    },
    async close() {},
  };
}

const blank = (width: number, height: number): RgbaImage => ({
  data: new Uint8Array(width * height * 4).fill(255),
  width,
  height,
});

describe('ruling lines from pixels', () => {
  it('finds the rules of a drawn grid and ignores text', async () => {
    const image = await drawPage({
      width: 600,
      height: 300,
      blocks: [{ text: 'Some words that are not rules at all', x: 20, y: 40, fontSize: 28 }],
      rules: [
        { x0: 50, y0: 100, x1: 550, y1: 100 },
        { x0: 50, y0: 200, x1: 550, y1: 200, width: 4 },
        { x0: 300, y0: 100, x1: 300, y1: 200 },
      ],
    });
    const { rules } = detectRules(image);
    const horizontal = rules.filter((r) => r.x1 - r.x0 > r.y1 - r.y0);
    const vertical = rules.filter((r) => r.y1 - r.y0 > r.x1 - r.x0);
    expect(horizontal.map((r) => [Math.round((r.y0 + r.y1) / 2), r.x1 - r.x0 > 490])).toEqual([
      [100, true],
      [200, true],
    ]);
    expect(vertical).toHaveLength(1);
    expect(Math.round((vertical[0]!.x0 + vertical[0]!.x1) / 2)).toBe(300);
  });
});

/** The text_as_html of the one Table the shared layout module makes of a page. */
function tableHtml(page: Pick<AnalysedPage, 'lines' | 'rules' | 'regions'>): string | undefined {
  const full: AnalysedPage = { pageNumber: 1, width: 800, height: 400, system: 'PixelSpace', ...page };
  const options = partitionOptionSet.parse({ pdf_infer_table_structure: true });
  const tables = elementsFromPages([full], options).filter((e) => e.type === 'Table');
  expect(tables).toHaveLength(1);
  return tables[0]!.metadata?.text_as_html;
}

describe('table structure from text alignment', () => {
  const rows = [
    ['Region', 'Units', 'Revenue'],
    ['North', '120', '4,100'],
    ['South', '95', '3,250'],
    ['West', '210', '7,900'],
  ];
  // The header row is not told apart here (same font as the body), so every row is a body row.
  const ROWS_HTML = `<table><tbody>${rows.map((row) => `<tr>${row.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('')}</tbody></table>`;
  const lines = rows.flatMap((row, r) =>
    row.map((cell, c) =>
      line(cell, 100 + c * 200, 100 + r * 40, 100 + c * 200 + 15 * cell.length, 125 + r * 40),
    ),
  );

  it('finds an unruled table and its cells', () => {
    const regions = analyseLayout({ width: 800, height: 400, lines, rules: [] });
    expect(regions).toHaveLength(1);
    expect(regions[0]!.label).toBe('Table');
    expect(tableHtml({ lines, rules: [], regions })).toBe(ROWS_HTML);
  });

  it('does not take two columns of prose for a table', () => {
    const prose = 'the quick brown fox jumps over the lazy dog again';
    const columns = [0, 1, 2, 3, 4].flatMap((r) => [
      line(prose, 50, 100 + r * 30, 380, 122 + r * 30),
      line(prose, 420, 100 + r * 30, 750, 122 + r * 30),
    ]);
    expect(analyseLayout({ width: 800, height: 400, lines: columns, rules: [] })).toEqual([]);
  });

  it('uses vertical rules as column boundaries of a ruled table', () => {
    const rules = [
      ...[90, 130, 170, 210, 250].map((y) => ({ x0: 90, y0: y, x1: 710, y1: y + 2 })),
      ...[90, 290, 490, 710].map((x) => ({ x0: x, y0: 90, x1: x + 2, y1: 252 })),
    ];
    const regions = analyseLayout({ width: 800, height: 400, lines, rules });
    expect(regions).toHaveLength(1);
    expect(tableHtml({ lines, rules, regions })).toBe(ROWS_HTML);
  });
});

describe('text layer quality', () => {
  const page = (
    texts: string[],
    stats?: { chars: number; unmappedChars: number; invisibleChars: number },
  ) => ({
    pageNumber: 1,
    width: 612,
    height: 792,
    system: 'PointSpace' as const,
    lines: texts.map((text, i) => line(text, 72, 72 + i * 14, 400, 84 + i * 14, 'text_layer')),
    stats,
  });

  it('accepts ordinary text and refuses empty, unmapped or junk layers', () => {
    expect(judgeTextLayer(page(['The annual report of the committee, 2024.'])).usable).toBe(true);
    expect(judgeTextLayer(page([])).reason).toBe('no_text');
    expect(judgeTextLayer(undefined).reason).toBe('no_text');
    expect(judgeTextLayer(page(['(cid:12)(cid:15)(cid:44)(cid:3)(cid:9)(cid:10) (cid:11)'])).reason).toBe(
      'garbage',
    );
    expect(
      judgeTextLayer(
        page([
          '\ue001\ue002\ue003\ue004\ue005\ue006\ue007\ue008\ue009\ue00a\ue00b\ue00c\ue00d\ue00e\ue00f\ue010\ue011\ue012\ue013\ue014\ue015',
        ]),
      ).reason,
    ).toBe('garbage');
    expect(
      judgeTextLayer(
        page(['Looks fine but the fonts lack a map'], { chars: 30, unmappedChars: 20, invisibleChars: 0 }),
      ).reason,
    ).toBe('unmapped_fonts');
  });
});

describe('hi_res page analysis', () => {
  const options = partitionOptionSet.parse({ coordinates: true, pdf_infer_table_structure: true });

  it('uses a good text layer (scaled to pixels) and OCRs only the pictures', async () => {
    const ocr = fakeOcr([line('Text inside the chart', 10, 10, 200, 40)]);
    const layout = await resolveLayoutAnalyser(undefined);
    // A 612×792 pt page rendered at 144 DPI: 1224×1584 px, scale 2.
    const page = await analysePage(
      {
        image: blank(1224, 1584),
        textLayer: {
          pageNumber: 1,
          width: 612,
          height: 792,
          system: 'PointSpace',
          lines: [line('A born-digital paragraph of ordinary text.', 72, 100, 400, 112, 'text_layer')],
          images: [{ x0: 72, y0: 300, x1: 472, y1: 500 }],
        },
      },
      1,
      { mode: 'hi_res', ocr, languages: ['en'], layout },
    );
    expect(ocr.calls.map((image) => [image.width, image.height])).toEqual([[800, 400]]);
    expect(page.lines.map((l) => [l.text, l.origin, Math.round(l.x0), Math.round(l.y0)])).toEqual([
      ['A born-digital paragraph of ordinary text.', 'text_layer', 144, 200],
      ['Text inside the chart', 'ocr', 154, 610],
    ]);
    const elements = elementsFromPages([page], options);
    const paragraph = elements.find((e) => e.text.startsWith('A born-digital'))!;
    expect(paragraph.metadata).toMatchObject({
      is_extracted: true,
      detection_origin: 'pdfium',
      coordinates: { system: 'PixelSpace', layout_width: 1224, layout_height: 1584 },
    });
    expect(elements.some((e) => e.type === 'Image')).toBe(true);
    const pictureText = elements.find((e) => e.text === 'Text inside the chart')!;
    expect(pictureText.metadata).toMatchObject({ is_extracted: false, detection_origin: 'fake-ocr' });
  });

  it('OCRs the whole page when the text layer is junk, and ocr_only always does', async () => {
    const ocr = fakeOcr([
      line('Scanned Heading', 100, 100, 500, 160),
      line('The scanned paragraph says something useful here.', 100, 220, 1100, 260),
    ]);
    const junk = {
      pageNumber: 1,
      width: 612,
      height: 792,
      system: 'PointSpace' as const,
      lines: [line('(cid:1)(cid:2)(cid:3)(cid:4)(cid:5)(cid:6)', 72, 72, 300, 84, 'text_layer')],
    };
    const hiRes = await analysePage({ image: blank(1224, 1584), textLayer: junk }, 2, {
      mode: 'hi_res',
      ocr,
      languages: ['en'],
    });
    expect(hiRes.lines.every((l) => l.origin === 'ocr')).toBe(true);
    const ocrOnly = await analysePage({ image: blank(1224, 1584) }, 3, {
      mode: 'ocr_only',
      ocr,
      languages: ['en'],
    });
    const elements = elementsFromPages([hiRes, ocrOnly], options);
    expect(elements.map((e) => [e.type, e.metadata?.page_number])).toEqual([
      ['Title', 2],
      ['NarrativeText', 2],
      ['PageBreak', 2],
      ['Title', 3],
      ['NarrativeText', 3],
      ['PageBreak', 3],
    ]);
    expect(elements[0]!.metadata).toMatchObject({ is_extracted: false, detection_origin: 'fake-ocr' });
  });

  it('reads two columns column by column, after a full-width title', () => {
    const lines = [
      line('Two Column Report', 100, 50, 700, 100),
      ...[0, 1, 2].map((i) =>
        line(`Left column sentence number ${i + 1} is here.`, 50, 150 + i * 30, 380, 172 + i * 30),
      ),
      ...[0, 1, 2].map((i) =>
        line(`Right column sentence number ${i + 1} is here.`, 420, 150 + i * 30, 750, 172 + i * 30),
      ),
    ];
    const page = { pageNumber: 1, width: 800, height: 1000, system: 'PixelSpace' as const, lines };
    const texts = elementsFromPages([page], options)
      .filter((e) => e.type !== 'PageBreak')
      .map((e) => e.text);
    expect(texts).toEqual([
      'Two Column Report',
      'Left column sentence number 1 is here. Left column sentence number 2 is here. Left column sentence number 3 is here.',
      'Right column sentence number 1 is here. Right column sentence number 2 is here. Right column sentence number 3 is here.',
    ]);
  });
});

describe('deskew', () => {
  it('measures the angle of a skewed scan and straightens it', async () => {
    const lines = Array.from({ length: 12 }, (_, i) => ({
      text: 'A line of ordinary text across most of the page width',
      x: 40,
      y: 60 + i * 40,
      fontSize: 24,
    }));
    const straight = await drawPage({ width: 900, height: 560, blocks: lines });
    expect(estimateSkewDegrees(straight)).toBe(0);
    const skewed = await degrade(straight, { skewDegrees: 2.5 });
    expect(estimateSkewDegrees(skewed)).toBeCloseTo(2.5, 0);
    const { image, degrees } = await deskew(skewed);
    expect(degrees).toBeCloseTo(2.5, 0);
    expect(Math.abs(estimateSkewDegrees(image))).toBeLessThan(0.3);
  });
});
