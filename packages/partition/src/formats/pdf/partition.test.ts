import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import type { Element } from '../../elements/element.js';
import { partitionOptionSet } from '../../options/partition-options.js';
import { DEFAULT_LIMITS } from '../../pipeline/limits.js';
import { partition } from '../../pipeline/partition.js';
import { closePagePool } from '../../workers/page-pool.js';
import { openPdf, type PdfDocument } from './engine.js';
import { partitionFast } from './fast.js';
import { chooseStrategy } from './strategy.js';
import { makePdf, type PdfPage } from './test-support/make-pdf.js';

afterAll(() => closePagePool());

const LOREM =
  'The committee reviewed the proposal in detail and agreed that the new process will reduce waiting times for most customers.';

const reportPage: PdfPage = {
  blocks: [
    { kind: 'heading', text: 'Quarterly Report', size: 22 },
    { kind: 'paragraph', text: LOREM },
    { kind: 'heading', text: 'Next Steps', size: 15 },
    {
      kind: 'bullets',
      items: ['Hire two more dispatchers.', 'Replace the routing software before the holiday season.'],
    },
    {
      kind: 'bullets',
      numbered: true,
      items: ['Collect feedback from drivers.', 'Publish the results in March.'],
    },
  ],
};

const texts = (elements: Element[]) =>
  elements.filter((e) => e.type !== 'PageBreak').map((e) => [e.type, e.text]);

describe('partition PDF, fast strategy', () => {
  it('types headings, prose and list items, in reading order', async () => {
    const elements = await partition(
      { data: await makePdf([reportPage]), filename: 'report.pdf' },
      { strategy: 'fast' },
    );
    expect(texts(elements)).toEqual([
      ['Title', 'Quarterly Report'],
      ['NarrativeText', LOREM],
      ['Title', 'Next Steps'],
      ['ListItem', 'Hire two more dispatchers.'],
      ['ListItem', 'Replace the routing software before the holiday season.'],
      ['ListItem', '1. Collect feedback from drivers.'],
      ['ListItem', '2. Publish the results in March.'],
    ]);
    const [title, , subtitle] = elements;
    expect(title?.metadata.category_depth).toBe(0);
    expect(subtitle?.metadata.category_depth).toBe(1);
    expect(elements[1]?.metadata.parent_id).toBe(title?.element_id);
    expect(elements[0]?.metadata.filetype).toBe('application/pdf');
    expect(elements[0]?.metadata.page_number).toBe(1);
    expect(elements[0]?.metadata.coordinates).toBeUndefined();
  });

  it('adds PointSpace coordinates (top-left origin, counter-clockwise corners) and page breaks on request', async () => {
    const data = await makePdf([reportPage, { blocks: [{ kind: 'paragraph', text: LOREM }] }]);
    const elements = await partition(
      { data, filename: 'report.pdf' },
      { strategy: 'fast', coordinates: true, include_page_breaks: true, starting_page_number: 10 },
    );
    const title = elements[0]!;
    const coordinates = title.metadata.coordinates!;
    expect(coordinates.system).toBe('PointSpace');
    expect(coordinates.layout_width).toBe(612);
    expect(coordinates.layout_height).toBe(792);
    const [[x0, y0], [x1, y1], [x2, y2], [x3, y3]] = coordinates.points as [number, number][];
    expect(x0).toBe(x1);
    expect(y1).toBe(y2);
    expect(x2).toBe(x3);
    expect(y0).toBe(y3);
    expect(y1).toBeGreaterThan(y0);
    expect(x2).toBeGreaterThan(x1);
    expect(y0).toBeGreaterThan(60);
    expect(y0).toBeLessThan(90);
    const breaks = elements.filter((e) => e.type === 'PageBreak');
    expect(breaks.map((e) => e.metadata.page_number)).toEqual([10, 11]);
    expect(elements.at(-1)?.type).toBe('PageBreak');
    expect(elements.at(-2)?.metadata.page_number).toBe(11);
  });

  it('reads two columns column by column, under a heading that spans both', async () => {
    const left = [
      'Left column first paragraph talks about apples and pears.',
      'Left column second paragraph continues the apples.',
    ];
    const right = [
      'Right column first paragraph talks about boats and rivers.',
      'Right column second paragraph returns to the sea.',
    ];
    const data = await makePdf([
      {
        blocks: [
          { kind: 'heading', text: 'Two Column Layout', size: 20 },
          { kind: 'paragraph', text: left[0]!, x: 72, y: 130, width: 220 },
          { kind: 'paragraph', text: left[1]!, x: 72, y: 200, width: 220 },
          { kind: 'paragraph', text: right[0]!, x: 320, y: 130, width: 220 },
          { kind: 'paragraph', text: right[1]!, x: 320, y: 200, width: 220 },
        ],
      },
    ]);
    const elements = await partition({ data, filename: 'columns.pdf' }, { strategy: 'fast' });
    expect(texts(elements).map(([, text]) => text)).toEqual(['Two Column Layout', ...left, ...right]);
  });

  it('recognises running headers, footers and page numbers by position and repetition', async () => {
    const pages: PdfPage[] = [1, 2, 3].map((n) => ({
      header: 'ACME Corporation Annual Review',
      footer: 'Page {page} of {pages}',
      blocks: [
        { kind: 'heading', text: `Chapter ${n}`, size: 18 },
        { kind: 'paragraph', text: `${LOREM} Chapter ${n} ends here.` },
        { kind: 'text', text: String(n), x: 540, y: 740, size: 9 },
      ],
    }));
    const elements = await partition(
      { data: await makePdf(pages), filename: 'review.pdf' },
      { strategy: 'fast' },
    );
    const byType = (type: string) => elements.filter((e) => e.type === type).map((e) => e.text);
    expect(byType('Header')).toEqual(Array(3).fill('ACME Corporation Annual Review'));
    expect(byType('Footer')).toEqual(['Page 1 of 3', 'Page 2 of 3', 'Page 3 of 3']);
    expect(byType('PageNumber')).toEqual(['1', '2', '3']);
    expect(byType('Title')).toEqual(['Chapter 1', 'Chapter 2', 'Chapter 3']);
  });

  it('finds ruled and unruled tables with their cells', async () => {
    const rows = [
      ['Region', 'Sales', 'Growth'],
      ['North', '120', '4%'],
      ['South', '95', '2%'],
      ['West', '143', '7%'],
    ];
    const data = await makePdf([
      {
        blocks: [
          { kind: 'table', ruled: true, rows, columnWidths: [120, 80, 80], x: 72, y: 100, boldHeader: true },
          { kind: 'table', ruled: false, rows, columnWidths: [120, 80, 80], x: 72, y: 320 },
        ],
      },
    ]);
    const elements = await partition({ data, filename: 'tables.pdf' }, { strategy: 'fast' });
    const tables = elements.filter((e) => e.type === 'Table');
    expect(tables).toHaveLength(2);
    expect(tables[0]?.metadata.text_as_html).toBe(
      '<table><thead><tr><th>Region</th><th>Sales</th><th>Growth</th></tr></thead><tbody><tr><td>North</td><td>120</td><td>4%</td></tr><tr><td>South</td><td>95</td><td>2%</td></tr><tr><td>West</td><td>143</td><td>7%</td></tr></tbody></table>',
    );
    expect(tables[1]?.metadata.text_as_html).toContain('<tr><td>South</td><td>95</td><td>2%</td></tr>');
    expect(tables[0]?.text).toBe('Region Sales Growth\nNorth 120 4%\nSouth 95 2%\nWest 143 7%');
    expect(elements.filter((e) => e.type !== 'Table' && e.type !== 'PageBreak')).toEqual([]);
    const skipped = await partition(
      { data, filename: 'tables.pdf' },
      { strategy: 'fast', skip_infer_table_types: ['pdf'] },
    );
    expect(
      skipped.filter((e) => e.type === 'Table').every((e) => e.metadata.text_as_html === undefined),
    ).toBe(true);
  });

  it('extracts pictures as Image elements, with PNG data only when asked', async () => {
    const png = new Uint8Array(
      await sharp({ create: { width: 40, height: 30, channels: 3, background: '#0000ff' } })
        .png()
        .toBuffer(),
    );
    const data = await makePdf([
      {
        blocks: [
          { kind: 'paragraph', text: LOREM },
          { kind: 'image', png, x: 150, y: 200, width: 200, height: 150 },
        ],
      },
    ]);
    const plain = await partition({ data, filename: 'picture.pdf' }, { strategy: 'fast' });
    expect(plain.map((e) => e.type)).toEqual(['NarrativeText', 'Image']);
    expect(plain[1]?.metadata.image_base64).toBeUndefined();
    const extracted = await partition(
      { data, filename: 'picture.pdf' },
      { strategy: 'fast', extract_image_block_types: ['Image'] },
    );
    const image = extracted.find((e) => e.type === 'Image')!;
    expect(image.metadata.image_mime_type).toBe('image/png');
    const decoded = await sharp(Buffer.from(image.metadata.image_base64!, 'base64')).metadata();
    expect(decoded.format).toBe('png');
  });

  it('rejoins words hyphenated at line ends and drops characters drawn twice (fake bold)', async () => {
    const data = await makePdf(
      [{ blocks: [{ kind: 'paragraph', text: `Bold claims: ${LOREM}`, bold: true }] }],
      {
        fakeBold: true,
      },
    );
    const [element] = await partition({ data, filename: 'bold.pdf' }, { strategy: 'fast' });
    expect(element?.text).toBe(`Bold claims: ${LOREM}`);
    const hyphenated = await makePdf([
      {
        blocks: [
          { kind: 'text', text: 'The board confirmed its long-term commit-', x: 72, y: 100 },
          { kind: 'text', text: 'ment to the well-known programme.', x: 72, y: 114 },
        ],
      },
    ]);
    const [prose] = await partition({ data: hyphenated, filename: 'hyphen.pdf' }, { strategy: 'fast' });
    expect(prose?.text).toBe('The board confirmed its long-term commitment to the well-known programme.');
  });

  it('processes only split_pdf_page_range, numbering pages as in the document', async () => {
    const pages: PdfPage[] = [1, 2, 3, 4].map((n) => ({
      blocks: [{ kind: 'paragraph', text: `This is page number ${n} of the test.` }],
    }));
    const data = await makePdf(pages);
    const elements = await partition(
      { data, filename: 'range.pdf' },
      { strategy: 'fast', split_pdf_page_range: [2, 3] },
    );
    expect(elements.map((e) => [e.metadata.page_number, e.text])).toEqual([
      [2, 'This is page number 2 of the test.'],
      [3, 'This is page number 3 of the test.'],
    ]);
    await expect(
      partition({ data, filename: 'range.pdf' }, { strategy: 'fast', split_pdf_page_range: [3, 9] }),
    ).rejects.toMatchObject({ code: 'invalid_option' });
  });

  it('gives the same elements on the page-worker pool (split_pdf_page) as in the calling thread', async () => {
    const pages: PdfPage[] = Array.from({ length: 12 }, (_, i) => ({
      header: 'Pool Test',
      blocks: [
        { kind: 'heading', text: `Section ${i + 1}`, size: 16 },
        { kind: 'paragraph', text: `${LOREM} (${i + 1})` },
      ],
    }));
    const data = await makePdf(pages);
    const inThread = await partition({ data, filename: 'pool.pdf' }, { strategy: 'fast', coordinates: true });
    const pooled = await partition(
      { data, filename: 'pool.pdf' },
      { strategy: 'fast', coordinates: true, split_pdf_page: true, split_pdf_concurrency_level: 3 },
    );
    expect(pooled).toEqual(inThread);
    expect(pooled.filter((e) => e.type === 'Title')).toHaveLength(12);
  });
});

describe('failed pages', () => {
  /** A document whose page 2 cannot be read. */
  function failingOnPage2(document: PdfDocument): PdfDocument {
    return {
      pageCount: document.pageCount,
      pageSize: (index) => document.pageSize(index),
      renderPage: (index, dpi) => document.renderPage(index, dpi),
      close: () => document.close(),
      readPage(index, options) {
        if (index === 1) throw new Error('broken content stream');
        return document.readPage(index, options);
      },
    };
  }

  async function run(allowFailed: boolean) {
    const pages: PdfPage[] = [1, 2, 3].map((n) => ({
      blocks: [{ kind: 'paragraph', text: `Content of page ${n} is here.` }],
    }));
    const data = await makePdf(pages);
    const document = failingOnPage2(await openPdf(data));
    try {
      return await partitionFast({
        data,
        document,
        pages: [0, 1, 2],
        options: partitionOptionSet.parse({ strategy: 'fast', split_pdf_allow_failed: allowFailed }),
        limits: DEFAULT_LIMITS,
        signal: undefined,
      });
    } finally {
      document.close();
    }
  }

  it('fails the document with the page error unless split_pdf_allow_failed', async () => {
    await expect(run(false)).rejects.toMatchObject({ message: /Page 2: broken content stream/ });
  });

  it('with split_pdf_allow_failed, leaves the page out and says so on its PageBreak', async () => {
    const drafts = await run(true);
    expect(drafts.filter((d) => d.type !== 'PageBreak').map((d) => d.text)).toEqual([
      'Content of page 1 is here.',
      'Content of page 3 is here.',
    ]);
    const pageBreak = drafts.filter((d) => d.type === 'PageBreak')[1];
    expect(pageBreak?.metadata?.page_number).toBe(2);
    expect(pageBreak?.metadata?.partition_error).toEqual({
      code: 'internal',
      message: 'Page 2: broken content stream',
    });
  });
});

describe('bad PDFs through partition()', () => {
  it('maps encrypted and non-PDF content to typed errors, and an empty PDF to no elements', async () => {
    const locked = await makePdf([{ blocks: [{ kind: 'paragraph', text: 'Locked' }] }], {
      userPassword: 'pw',
      ownerPassword: 'o',
    });
    await expect(partition({ data: locked, filename: 'locked.pdf' })).rejects.toMatchObject({
      code: 'encrypted_document',
    });
    const html = new TextEncoder().encode('<html><body><p>I am HTML</p></body></html>');
    await expect(
      partition({ data: html, filename: 'fake.pdf' }, { content_type: 'application/pdf' }),
    ).rejects.toMatchObject({ code: 'corrupt_document', message: /does not appear to be a valid PDF/ });
    const detected = await partition({ data: html, filename: 'fake.pdf' });
    expect(detected[0]?.metadata.filetype).toBe('text/html');
  });
});

describe('time limits', () => {
  it('stops with a timeout error when cancelled or out of document time', async () => {
    const pages: PdfPage[] = Array.from({ length: 6 }, (_, i) => ({
      blocks: [{ kind: 'paragraph', text: `${LOREM} ${i}` }],
    }));
    const data = await makePdf(pages);
    const cancelled = new AbortController();
    cancelled.abort();
    await expect(
      partition({ data, filename: 'slow.pdf' }, { strategy: 'fast' }, { signal: cancelled.signal }),
    ).rejects.toMatchObject({ code: 'timeout' });
    // A 1 ms budget cannot cover starting a page worker, so the document runs out of time.
    await expect(
      partition({ data, filename: 'slow.pdf' }, { strategy: 'fast' }, { limits: { documentTimeoutMs: 1 } }),
    ).rejects.toMatchObject({ code: 'timeout' });
  });
});

describe('strategy auto', () => {
  const usable = () => ({ usable: true, sampled: 3, textless: 0 });
  const scanned = () => ({ usable: false, sampled: 3, textless: 3 });
  it('reads a text layer fast, unless table structure is asked for; scans go to hi_res', () => {
    expect(chooseStrategy('auto', { pdf_infer_table_structure: false }, usable)).toBe('fast');
    expect(chooseStrategy('auto', { pdf_infer_table_structure: true }, usable)).toBe('hi_res');
    expect(chooseStrategy('auto', { pdf_infer_table_structure: false }, scanned)).toBe('hi_res');
    expect(chooseStrategy('ocr_only', { pdf_infer_table_structure: false }, usable)).toBe('ocr_only');
  });
});
