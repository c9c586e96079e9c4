import sharp from 'sharp';
import {
  makePdf,
  type PdfBlock,
  type PdfPage,
} from '../../packages/partition/src/formats/pdf/test-support/make-pdf.js';
import type { CaseSource, EvalCase, ExpectedElement } from '../types.js';

async function greyPng(): Promise<Uint8Array> {
  const png = await sharp({ create: { width: 300, height: 90, channels: 3, background: '#888888' } })
    .png()
    .toBuffer();
  return new Uint8Array(png);
}

/**
 * PDFs of known structure, written with pdfkit: single and two-column pages, running headers and
 * footers with page numbers, ruled and unruled tables with known cells, bulleted and numbered lists
 * (with wrapped items), headings of several sizes. Each case is partitioned with strategy fast (the
 * text layer) and auto (which picks fast for these born-digital files).
 */

const PROSE = [
  'The operations team reduced average delivery time by twelve percent during the quarter, while costs stayed within the approved budget.',
  'Customer satisfaction rose in every region, and the number of complaints about late deliveries fell to the lowest level recorded so far.',
  'The board asked the team to publish a short report on the new routing process so that other departments can learn from it.',
  'Most of the savings came from better planning of the night shift and from fewer empty trips between the two main warehouses.',
  'The finance department will review the figures again before the annual meeting and will present any corrections at that time.',
  'Drivers reported that the new handheld devices are easier to use, although the battery life is still shorter than they would like.',
];

type Outline = { page: PdfBlock[]; expected: ExpectedElement[] };

function pdfCase(
  name: string,
  pages: PdfPage[],
  expected: ExpectedElement[],
  strategy: 'fast' | 'auto' = 'fast',
): Promise<EvalCase> {
  return makePdf(pages).then((data) => ({
    name: `pdf/${name}${strategy === 'fast' ? '' : `-${strategy}`}`,
    format: 'pdf',
    filename: `${name}.pdf`,
    data,
    options: { strategy },
    expected,
  }));
}

function report(): Outline {
  return {
    page: [
      { kind: 'heading', text: 'Quarterly Operations Review', size: 22 },
      { kind: 'paragraph', text: `${PROSE[0]} ${PROSE[1]}` },
      { kind: 'heading', text: 'Next Steps', size: 15 },
      {
        kind: 'bullets',
        items: [
          'Hire two more dispatchers for the night shift.',
          'Replace the routing software before the holiday season, after testing it with a small group of drivers in the northern region.',
        ],
      },
      { kind: 'paragraph', text: PROSE[2]! },
      {
        kind: 'bullets',
        numbered: true,
        items: [
          'Collect feedback from every driver.',
          'Publish the results at the next review meeting in March.',
        ],
      },
    ],
    expected: [
      { type: 'Title', text: 'Quarterly Operations Review' },
      { type: 'NarrativeText', text: `${PROSE[0]} ${PROSE[1]}` },
      { type: 'Title', text: 'Next Steps' },
      { type: 'ListItem', text: 'Hire two more dispatchers for the night shift.' },
      {
        type: 'ListItem',
        text: 'Replace the routing software before the holiday season, after testing it with a small group of drivers in the northern region.',
      },
      { type: 'NarrativeText', text: PROSE[2]! },
      { type: 'ListItem', text: '1. Collect feedback from every driver.' },
      { type: 'ListItem', text: '2. Publish the results at the next review meeting in March.' },
    ],
  };
}

function twoColumns(): Outline {
  const column = (x: number, texts: string[]): PdfBlock[] =>
    texts.map((text, i) => ({ kind: 'paragraph', text, x, y: 130 + i * 110, width: 220, size: 10 }));
  return {
    page: [
      { kind: 'heading', text: 'Logistics in Two Columns', size: 20 },
      ...column(72, PROSE.slice(0, 3)),
      ...column(320, PROSE.slice(3, 6)),
    ],
    expected: [
      { type: 'Title', text: 'Logistics in Two Columns' },
      ...PROSE.map((text) => ({ type: 'NarrativeText' as const, text })),
    ],
  };
}

function runningHeaders(): { pages: PdfPage[]; expected: ExpectedElement[] } {
  const pages: PdfPage[] = [];
  const expected: ExpectedElement[] = [];
  for (let n = 1; n <= 4; n++) {
    pages.push({
      header: 'Northwind Logistics: Annual Review 2025',
      footer: 'Page {page} of {pages}',
      blocks: [
        { kind: 'heading', text: `Section ${n}: Results`, size: 16 },
        { kind: 'paragraph', text: PROSE[n]! },
        { kind: 'text', text: String(n), x: 540, y: 752, size: 9 },
      ],
    });
    expected.push(
      { type: 'Header', text: 'Northwind Logistics: Annual Review 2025' },
      { type: 'Title', text: `Section ${n}: Results` },
      { type: 'NarrativeText', text: PROSE[n]! },
      { type: 'Footer', text: `Page ${n} of 4` },
      { type: 'PageNumber', text: String(n) },
    );
  }
  return { pages, expected };
}

const SALES = [
  ['Region', 'Orders', 'Revenue', 'Growth'],
  ['North', '1,204', '$88,300', '4.1%'],
  ['South', '961', '$70,150', '2.3%'],
  ['East', '1,530', '$112,900', '6.8%'],
  ['West', '1,122', '$81,020', '-0.7%'],
];

function table(ruled: boolean): Outline {
  return {
    page: [
      { kind: 'heading', text: ruled ? 'Sales by Region' : 'Orders by Region', size: 16 },
      { kind: 'paragraph', text: PROSE[3]! },
      { kind: 'table', ruled, rows: SALES, columnWidths: [120, 90, 100, 80], boldHeader: true, y: 200 },
      { kind: 'paragraph', text: PROSE[4]!, y: 340 },
    ],
    expected: [
      { type: 'Title', text: ruled ? 'Sales by Region' : 'Orders by Region' },
      { type: 'NarrativeText', text: PROSE[3]! },
      { type: 'Table', text: SALES.map((row) => row.join(' ')).join('\n'), cells: SALES },
      { type: 'NarrativeText', text: PROSE[4]! },
    ],
  };
}

function headings(): Outline {
  return {
    page: [
      { kind: 'heading', text: 'Handbook for New Drivers', size: 24 },
      { kind: 'paragraph', text: PROSE[0]! },
      { kind: 'heading', text: 'Before the First Shift', size: 18 },
      { kind: 'paragraph', text: PROSE[1]! },
      { kind: 'heading', text: 'Checking the Vehicle', size: 14 },
      { kind: 'paragraph', text: PROSE[2]! },
      { kind: 'heading', text: 'After the Shift', size: 18 },
      { kind: 'paragraph', text: PROSE[5]! },
    ],
    expected: [
      { type: 'Title', text: 'Handbook for New Drivers' },
      { type: 'NarrativeText', text: PROSE[0]! },
      { type: 'Title', text: 'Before the First Shift' },
      { type: 'NarrativeText', text: PROSE[1]! },
      { type: 'Title', text: 'Checking the Vehicle' },
      { type: 'NarrativeText', text: PROSE[2]! },
      { type: 'Title', text: 'After the Shift' },
      { type: 'NarrativeText', text: PROSE[5]! },
    ],
  };
}

/** Two columns above and below a picture that spans both: each section is read column by column. */
function columnsAroundFigure(png: Uint8Array): Outline {
  const column = (x: number, y: number, texts: string[]): PdfBlock[] =>
    texts.map((text, i) => ({ kind: 'paragraph', text, x, y: y + i * 95, width: 220, size: 10 }));
  return {
    page: [
      { kind: 'heading', text: 'Fleet Changes This Year', size: 20 },
      ...column(72, 120, PROSE.slice(0, 2)),
      ...column(320, 120, PROSE.slice(2, 4)),
      { kind: 'image', png, x: 72, y: 330, width: 468, height: 140 },
      ...column(72, 490, [PROSE[4]!]),
      ...column(320, 490, [PROSE[5]!]),
    ],
    expected: [
      { type: 'Title', text: 'Fleet Changes This Year' },
      ...PROSE.map((text) => ({ type: 'NarrativeText' as const, text })),
    ],
  };
}

const SCHEDULE = [
  ['Route', 'Stops', 'Notes'],
  ['Harbour loop', 'Dock 3, Fish market, Ferry terminal', 'Runs every twenty minutes on weekdays'],
  ['Hill line', 'Old town, Hospital', 'Extra buses on market days'],
  ['Airport shuttle', 'Central station, Airport', 'First departure at five in the morning'],
];

/** A ruled table whose cells wrap onto two lines. */
function wrappedCells(): Outline {
  return {
    page: [
      { kind: 'heading', text: 'Bus Schedule', size: 16 },
      {
        kind: 'table',
        ruled: true,
        rows: SCHEDULE,
        columnWidths: [110, 170, 170],
        rowHeight: 34,
        wrap: true,
        y: 120,
        boldHeader: true,
      },
    ],
    expected: [
      { type: 'Title', text: 'Bus Schedule' },
      { type: 'Table', text: SCHEDULE.map((row) => row.join(' ')).join('\n'), cells: SCHEDULE },
    ],
  };
}

export const source: CaseSource = {
  area: 'pdf',
  async cases() {
    const single = report();
    const columns = twoColumns();
    const running = runningHeaders();
    const ruled = table(true);
    const unruled = table(false);
    const sized = headings();
    const figure = columnsAroundFigure(await greyPng());
    const wrapped = wrappedCells();
    return Promise.all([
      pdfCase('columns-around-figure', [{ blocks: figure.page }], figure.expected),
      pdfCase('wrapped-cells', [{ blocks: wrapped.page }], wrapped.expected),
      pdfCase('report', [{ blocks: single.page }], single.expected),
      pdfCase('report', [{ blocks: single.page }], single.expected, 'auto'),
      pdfCase('two-columns', [{ blocks: columns.page }], columns.expected),
      pdfCase('running-headers', running.pages, running.expected),
      pdfCase('ruled-table', [{ blocks: ruled.page }], ruled.expected),
      pdfCase('unruled-table', [{ blocks: unruled.page }], unruled.expected),
      pdfCase('heading-sizes', [{ blocks: sized.page }], sized.expected),
    ]);
  },
};
