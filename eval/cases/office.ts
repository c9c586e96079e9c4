import {
  Document,
  Footer,
  Header,
  HeadingLevel,
  LevelFormat,
  Packer,
  PageBreak,
  Paragraph,
  Table,
  TableCell,
  TableRow,
  Textbox,
  TextRun,
} from 'docx';
import ExcelJS from 'exceljs';
import { strToU8, zipSync } from 'fflate';
import PptxGenJSModule from 'pptxgenjs';
import type { CaseSource, EvalCase, ExpectedElement } from '../types.js';

/**
 * Office documents (docx, pptx, xlsx, odt, rtf) generated from known outlines: headings, prose, nested
 * lists, tables with known cells, headers and footers. Each outline is written once and rendered by the
 * format's own library, so the expected elements are exactly what was put in.
 */

/** pptxgenjs types describe an ES default export; Node hands ES importers its CommonJS export instead. */
const PptxGenJS = ((PptxGenJSModule as unknown as { default?: unknown }).default ??
  PptxGenJSModule) as unknown as typeof PptxGenJSModule.default;

type Block =
  | { kind: 'header' | 'footer'; text: string }
  | { kind: 'title'; text: string; level: number }
  | { kind: 'prose'; text: string }
  | { kind: 'bullet' | 'number'; text: string; level: number }
  | { kind: 'table'; cells: string[][] }
  | { kind: 'pageBreak' }
  | { kind: 'boldLine'; text: string };

const REPORT: Block[] = [
  { kind: 'header', text: 'Northwind Quarterly Report' },
  { kind: 'title', text: 'Operations Summary', level: 1 },
  {
    kind: 'prose',
    text: 'The operations team reduced average delivery time by twelve percent during the quarter.',
  },
  { kind: 'title', text: 'Regional Results', level: 2 },
  {
    kind: 'prose',
    text: 'Every region met its revenue target, and two regions exceeded it by a wide margin.',
  },
  {
    kind: 'table',
    cells: [
      ['Region', 'Revenue', 'Growth'],
      ['North', '1200', '8%'],
      ['South', '950', '5%'],
      ['West', '700', '11%'],
    ],
  },
  { kind: 'pageBreak' },
  { kind: 'title', text: 'Next Steps', level: 1 },
  { kind: 'bullet', text: 'Hire two more dispatchers for the night shift.', level: 0 },
  { kind: 'bullet', text: 'Start with the northern warehouse team.', level: 1 },
  { kind: 'bullet', text: 'Replace the routing software before the holiday season.', level: 0 },
  { kind: 'number', text: 'Collect quotes from three vendors.', level: 0 },
  { kind: 'number', text: 'Choose a vendor by the end of March.', level: 0 },
  { kind: 'prose', text: 'We will report progress on these items at the next review meeting in March.' },
  { kind: 'footer', text: 'Confidential internal document' },
];

/** A document that marks its headings only by bold text, as many real ones do. */
const MEMO: Block[] = [
  { kind: 'boldLine', text: 'Travel Policy Update' },
  {
    kind: 'prose',
    text: 'Employees must book all flights through the company travel portal from June onwards.',
  },
  { kind: 'boldLine', text: 'Hotel Limits' },
  { kind: 'prose', text: 'The nightly hotel limit rises to one hundred and fifty euros in capital cities.' },
  {
    kind: 'table',
    cells: [
      ['City', 'Limit'],
      ['Paris', '150'],
      ['Lyon', '110'],
    ],
  },
  { kind: 'prose', text: 'Questions about these rules should be sent to the finance office.' },
];

function expectedOf(blocks: Block[]): ExpectedElement[] {
  const expected: ExpectedElement[] = [];
  const headers = blocks.filter((b) => b.kind === 'header');
  const footers = blocks.filter((b) => b.kind === 'footer');
  for (const block of headers) if ('text' in block) expected.push({ type: 'Header', text: block.text });
  for (const block of blocks) {
    switch (block.kind) {
      case 'title':
      case 'boldLine':
        expected.push({ type: 'Title', text: block.text });
        break;
      case 'prose':
        expected.push({ type: 'NarrativeText', text: block.text });
        break;
      case 'bullet':
      case 'number':
        expected.push({ type: 'ListItem', text: block.text });
        break;
      case 'table':
        expected.push({
          type: 'Table',
          text: block.cells.map((row) => row.join(' ')).join('\n'),
          cells: block.cells,
        });
        break;
      default:
        break;
    }
  }
  for (const block of footers) if ('text' in block) expected.push({ type: 'Footer', text: block.text });
  return expected;
}

async function renderDocx(blocks: Block[]): Promise<Uint8Array> {
  const headingLevels = [HeadingLevel.HEADING_1, HeadingLevel.HEADING_2, HeadingLevel.HEADING_3];
  const children: (Paragraph | Table)[] = [];
  for (const block of blocks) {
    if (block.kind === 'title')
      children.push(new Paragraph({ text: block.text, heading: headingLevels[block.level - 1] }));
    else if (block.kind === 'prose') children.push(new Paragraph(block.text));
    else if (block.kind === 'boldLine')
      children.push(new Paragraph({ children: [new TextRun({ text: block.text, bold: true })] }));
    else if (block.kind === 'bullet')
      children.push(new Paragraph({ text: block.text, bullet: { level: block.level } }));
    else if (block.kind === 'number') {
      children.push(
        new Paragraph({ text: block.text, numbering: { reference: 'steps', level: block.level } }),
      );
    } else if (block.kind === 'pageBreak') children.push(new Paragraph({ children: [new PageBreak()] }));
    else if (block.kind === 'table') {
      children.push(
        new Table({
          rows: block.cells.map(
            (row) =>
              new TableRow({
                children: row.map((text) => new TableCell({ children: [new Paragraph(text)] })),
              }),
          ),
        }),
      );
    }
  }
  const header = blocks.find((b) => b.kind === 'header');
  const footer = blocks.find((b) => b.kind === 'footer');
  const document = new Document({
    numbering: {
      config: [{ reference: 'steps', levels: [{ level: 0, format: LevelFormat.DECIMAL, text: '%1.' }] }],
    },
    sections: [
      {
        headers:
          header && 'text' in header
            ? { default: new Header({ children: [new Paragraph(header.text)] }) }
            : {},
        footers:
          footer && 'text' in footer
            ? { default: new Footer({ children: [new Paragraph(footer.text)] }) }
            : {},
        children,
      },
    ],
  });
  return new Uint8Array(await Packer.toBuffer(document));
}

const ODF_NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" ' +
  'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" ' +
  'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"';
const xml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');

function renderOdt(blocks: Block[]): Uint8Array {
  let body = '';
  let openLevels = 0;
  const closeLists = (to: number) => {
    while (openLevels > to) {
      body += '</text:list-item></text:list>';
      openLevels--;
    }
  };
  for (const block of blocks) {
    if (block.kind === 'bullet' || block.kind === 'number') {
      const level = block.level + 1;
      if (level <= openLevels) {
        closeLists(level);
        body += '</text:list-item><text:list-item>';
      }
      while (openLevels < level) {
        body += '<text:list><text:list-item>';
        openLevels++;
      }
      body += `<text:p>${xml(block.text)}</text:p>`;
      continue;
    }
    closeLists(0);
    if (block.kind === 'title')
      body += `<text:h text:outline-level="${block.level}">${xml(block.text)}</text:h>`;
    else if (block.kind === 'prose') body += `<text:p>${xml(block.text)}</text:p>`;
    else if (block.kind === 'pageBreak') body += '<text:soft-page-break/>';
    else if (block.kind === 'table') {
      body += `<table:table>${block.cells
        .map(
          (row) =>
            `<table:table-row>${row.map((c) => `<table:table-cell><text:p>${xml(c)}</text:p></table:table-cell>`).join('')}</table:table-row>`,
        )
        .join('')}</table:table>`;
    }
  }
  closeLists(0);
  const running = blocks
    .filter((b) => b.kind === 'header' || b.kind === 'footer')
    .map((b) => `<style:${b.kind}><text:p>${xml('text' in b ? b.text : '')}</text:p></style:${b.kind}>`)
    .join('');
  const content = `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${ODF_NS}><office:body><office:text>${body}</office:text></office:body></office:document-content>`;
  const styles = `<?xml version="1.0" encoding="UTF-8"?><office:document-styles ${ODF_NS}><office:master-styles><style:master-page style:name="Standard">${running}</style:master-page></office:master-styles></office:document-styles>`;
  return zipSync({
    mimetype: [strToU8('application/vnd.oasis.opendocument.text'), { level: 0 }],
    'content.xml': strToU8(content),
    'styles.xml': strToU8(styles),
  });
}

function renderRtf(blocks: Block[]): Uint8Array {
  const rtfText = (text: string) => text.replace(/[\\{}]/g, (c) => `\\${c}`);
  let body =
    '{\\rtf1\\ansi\\ansicpg1252{\\fonttbl{\\f0 Arial;}}{\\stylesheet{\\s0 Normal;}{\\s1 heading 1;}{\\s2 heading 2;}}';
  for (const block of blocks) {
    if (block.kind === 'header' || block.kind === 'footer')
      body += `{\\${block.kind} \\pard ${rtfText(block.text)}\\par}`;
    else if (block.kind === 'title') body += `{\\pard\\s${block.level} ${rtfText(block.text)}\\par}`;
    else if (block.kind === 'prose') body += `{\\pard ${rtfText(block.text)}\\par}`;
    else if (block.kind === 'boldLine') body += `{\\pard\\b ${rtfText(block.text)}\\b0\\par}`;
    else if (block.kind === 'bullet' || block.kind === 'number') {
      const marker = block.kind === 'bullet' ? "\\'95" : '1.';
      body += `{\\pard\\ls1\\ilvl${block.level}{\\listtext ${marker}\\tab}${rtfText(block.text)}\\par}`;
    } else if (block.kind === 'pageBreak') body += '\\page';
    else if (block.kind === 'table') {
      for (const row of block.cells) {
        body += `\\trowd${row.map((_, i) => `\\cellx${(i + 1) * 2000}`).join('')}\\pard\\intbl ${row.map((c) => `${rtfText(c)}\\cell`).join(' ')}\\row`;
      }
      body += '\\pard';
    }
  }
  return strToU8(`${body}}`);
}

async function renderPptx(): Promise<{ data: Uint8Array; expected: ExpectedElement[] }> {
  const deck = new PptxGenJS();
  deck.defineSlideMaster({
    title: 'CONTENT',
    objects: [
      { placeholder: { options: { name: 'title', type: 'title', x: 0.5, y: 0.2, w: 9, h: 1 }, text: '' } },
      { placeholder: { options: { name: 'body', type: 'body', x: 0.5, y: 1.4, w: 9, h: 3 }, text: '' } },
    ],
  });
  const first = deck.addSlide({ masterName: 'CONTENT' });
  first.addText('Product Launch Plan', { placeholder: 'title' });
  first.addText(
    [
      { text: 'Finish the beta programme in April', options: { bullet: true } },
      { text: 'Fix every blocking defect first', options: { bullet: true, indentLevel: 1 } },
      { text: 'Train the support team in May', options: { bullet: true } },
    ],
    { placeholder: 'body' },
  );
  first.addNotes('Remind the audience that dates can still move.');
  const second = deck.addSlide({ masterName: 'CONTENT' });
  second.addText('Launch Budget', { placeholder: 'title' });
  const cells = [
    ['Item', 'Cost'],
    ['Advertising', '40000'],
    ['Events', '25000'],
  ];
  second.addTable(
    cells.map((row) => row.map((text) => ({ text }))),
    { x: 0.5, y: 1.4, w: 6 },
  );
  second.addText('The budget was approved by the board in February.', { x: 0.5, y: 4.5, w: 9, h: 0.6 });
  const data = new Uint8Array((await deck.write({ outputType: 'nodebuffer' })) as Buffer);
  return {
    data,
    expected: [
      { type: 'Title', text: 'Product Launch Plan' },
      { type: 'ListItem', text: 'Finish the beta programme in April' },
      { type: 'ListItem', text: 'Fix every blocking defect first' },
      { type: 'ListItem', text: 'Train the support team in May' },
      { type: 'NarrativeText', text: 'Remind the audience that dates can still move.' },
      { type: 'Title', text: 'Launch Budget' },
      { type: 'Table', text: cells.map((row) => row.join(' ')).join('\n'), cells },
      { type: 'NarrativeText', text: 'The budget was approved by the board in February.' },
    ],
  };
}

async function renderXlsx(): Promise<{ data: Uint8Array; expected: ExpectedElement[] }> {
  const workbook = new ExcelJS.Workbook();
  const stock = workbook.addWorksheet('Stock');
  const first = [
    ['Product', 'Warehouse', 'Units'],
    ['Chairs', 'Leeds', '120'],
    ['Tables', 'Leeds', '45'],
    ['Lamps', 'York', '300'],
  ];
  const second = [
    ['Supplier', 'Lead time'],
    ['Acme', '14'],
    ['Globex', '21'],
  ];
  stock.getCell('A1').value = 'Inventory Levels';
  first.forEach((row, r) => {
    stock.getRow(r + 2).values = row.map((v) => (/^\d+$/.test(v) ? Number(v) : v));
  });
  second.forEach((row, r) => {
    stock.getRow(r + 8).values = row.map((v) => (/^\d+$/.test(v) ? Number(v) : v));
  });
  stock.getCell('A12').value = 'Counts were taken on the last day of the month by the warehouse staff.';
  const orders = workbook.addWorksheet('Orders');
  const third = [
    ['Order', 'Customer', 'Total'],
    ['1001', 'Initech', '560'],
    ['1002', 'Umbrella', '1290'],
  ];
  third.forEach((row, r) => {
    orders.getRow(r + 1).values = row.map((v) => (/^\d+$/.test(v) ? Number(v) : v));
  });
  const table = (cells: string[][]): ExpectedElement => ({
    type: 'Table',
    text: cells.map((row) => row.join(' ')).join('\n'),
    cells,
  });
  return {
    data: new Uint8Array(await workbook.xlsx.writeBuffer()),
    expected: [
      { type: 'Title', text: 'Inventory Levels' },
      table(first),
      table(second),
      {
        type: 'NarrativeText',
        text: 'Counts were taken on the last day of the month by the warehouse staff.',
      },
      table(third),
    ],
  };
}

/**
 * A harder Word document: two sections with their own headers and footers, a table with merged cells
 * and a nested table, a text box, a hyperlink, and a heading numbered by Word.
 */
async function renderComplexDocx(): Promise<{ data: Uint8Array; expected: ExpectedElement[] }> {
  const cell = (text: string, extra: Record<string, unknown> = {}) =>
    new TableCell({ children: [new Paragraph(text)], ...extra });
  const nested = new Table({
    rows: [new TableRow({ children: [cell('inner one'), cell('inner two')] })],
  });
  const document = new Document({
    sections: [
      {
        headers: { default: new Header({ children: [new Paragraph('Contract header')] }) },
        footers: { default: new Footer({ children: [new Paragraph('Contract footer')] }) },
        children: [
          new Paragraph({ text: 'Service Agreement', heading: HeadingLevel.TITLE }),
          new Paragraph({ text: 'Scope of Work', heading: HeadingLevel.HEADING_1 }),
          new Paragraph(
            'The supplier shall deliver the maintenance services described in this agreement every month.',
          ),
          new Textbox({
            children: [new Paragraph('Both parties signed this agreement in Geneva on the first of May.')],
            style: { width: '3in', height: 'auto' },
          }),
          new Table({
            rows: [
              new TableRow({ children: [cell('Service'), cell('Hours'), cell('Rate')] }),
              new TableRow({ children: [cell('Support', { rowSpan: 2 }), cell('10'), cell('50')] }),
              new TableRow({ children: [cell('20'), cell('45')] }),
              new TableRow({
                children: [cell('Extras', { columnSpan: 2 }), new TableCell({ children: [nested] })],
              }),
            ],
          }),
        ],
      },
      {
        headers: { default: new Header({ children: [new Paragraph('Appendix header')] }) },
        children: [
          new Paragraph({ text: 'Appendix', heading: HeadingLevel.HEADING_1 }),
          new Paragraph('Prices in the appendix are valid until the end of the calendar year.'),
        ],
      },
    ],
  });
  return {
    data: new Uint8Array(await Packer.toBuffer(document)),
    expected: [
      { type: 'Header', text: 'Contract header' },
      { type: 'Title', text: 'Service Agreement' },
      { type: 'Title', text: 'Scope of Work' },
      {
        type: 'NarrativeText',
        text: 'The supplier shall deliver the maintenance services described in this agreement every month.',
      },
      { type: 'NarrativeText', text: 'Both parties signed this agreement in Geneva on the first of May.' },
      {
        type: 'Table',
        text: 'Service Hours Rate\nSupport 10 50\n20 45\nExtras inner one inner two',
        cells: [
          ['Service', 'Hours', 'Rate'],
          ['Support', '10', '50'],
          ['Support', '20', '45'],
          ['Extras', 'Extras', 'inner one inner two'],
        ],
      },
      { type: 'Footer', text: 'Contract footer' },
      { type: 'Header', text: 'Appendix header' },
      { type: 'Title', text: 'Appendix' },
      { type: 'NarrativeText', text: 'Prices in the appendix are valid until the end of the calendar year.' },
    ],
  };
}

/** Two text columns and a caption under them: reading order must follow the slide's geometry. */
async function renderColumnsPptx(): Promise<{ data: Uint8Array; expected: ExpectedElement[] }> {
  const deck = new PptxGenJS();
  const slide = deck.addSlide();
  slide.addText('Market Overview', { x: 0.5, y: 0.3, w: 9, h: 0.8, fontSize: 32, bold: true });
  // Added in an order that differs from the visual order on purpose.
  slide.addText('Prices in the south rose slowly because supply kept pace with demand.', {
    x: 5,
    y: 1.4,
    w: 4.5,
    h: 2,
  });
  slide.addText('Prices in the north rose quickly because new housing was scarce.', {
    x: 0.5,
    y: 1.4,
    w: 4.5,
    h: 2,
  });
  slide.addText('Source: regional statistics office, 2024 survey.', { x: 0.5, y: 4.8, w: 9, h: 0.5 });
  return {
    data: new Uint8Array((await deck.write({ outputType: 'nodebuffer' })) as Buffer),
    expected: [
      { type: 'Title', text: 'Market Overview' },
      { type: 'NarrativeText', text: 'Prices in the north rose quickly because new housing was scarce.' },
      {
        type: 'NarrativeText',
        text: 'Prices in the south rose slowly because supply kept pace with demand.',
      },
      { type: 'UncategorizedText', text: 'Source: regional statistics office, 2024 survey.' },
    ],
  };
}

export const source: CaseSource = {
  area: 'office',
  async cases(): Promise<EvalCase[]> {
    const pptx = await renderPptx();
    const xlsx = await renderXlsx();
    const complex = await renderComplexDocx();
    const columns = await renderColumnsPptx();
    return [
      {
        name: 'office/docx-sections',
        format: 'docx',
        filename: 'contract.docx',
        data: complex.data,
        expected: complex.expected,
      },
      {
        name: 'office/pptx-columns',
        format: 'pptx',
        filename: 'market.pptx',
        data: columns.data,
        expected: columns.expected,
      },
      {
        name: 'office/docx-report',
        format: 'docx',
        filename: 'report.docx',
        data: await renderDocx(REPORT),
        expected: expectedOf(REPORT),
      },
      {
        name: 'office/docx-bold-headings',
        format: 'docx',
        filename: 'memo.docx',
        data: await renderDocx(MEMO),
        expected: expectedOf(MEMO),
      },
      {
        name: 'office/odt-report',
        format: 'odt',
        filename: 'report.odt',
        data: renderOdt(REPORT),
        expected: expectedOf(REPORT),
      },
      {
        name: 'office/rtf-report',
        format: 'rtf',
        filename: 'report.rtf',
        data: renderRtf(REPORT),
        expected: expectedOf(REPORT),
      },
      {
        name: 'office/rtf-bold-headings',
        format: 'rtf',
        filename: 'memo.rtf',
        data: renderRtf(MEMO),
        expected: expectedOf(MEMO),
      },
      {
        name: 'office/pptx-launch',
        format: 'pptx',
        filename: 'launch.pptx',
        data: pptx.data,
        expected: pptx.expected,
      },
      {
        name: 'office/xlsx-inventory',
        format: 'xlsx',
        filename: 'inventory.xlsx',
        data: xlsx.data,
        expected: xlsx.expected,
      },
    ];
  },
};
