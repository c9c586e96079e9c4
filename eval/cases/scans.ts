import type { OcrAgent } from '@docsvc/partition';
import sharp from 'sharp';
import {
  type Degradation,
  degrade,
  drawPage,
  type PageDrawing,
  type RuleLine,
  type TextBlock,
} from '../../packages/partition/src/ocr/test-support/text-image.js';
import type { CaseSource, EvalCase, ExpectedElement } from '../types.js';

/**
 * Scanned pages of known structure: drawn as images (SVG rendered by sharp, DejaVu fonts) at about
 * 150 DPI, then saved clean or "scanned" (noise, blur, skew, JPEG artefacts), and read with each OCR
 * engine through the image partitioner (strategy auto → hi_res, table structure on).
 */

const WIDTH = 1240;
const BODY = 24;
const LEFT = 90;

interface Layout {
  blocks: TextBlock[];
  rules: RuleLine[];
  expected: ExpectedElement[];
  height: number;
}

/** Lay out a document top to bottom from its expected elements. */
function layout(elements: ExpectedElement[], options: { ruledTables: boolean }): Layout {
  const blocks: TextBlock[] = [];
  const rules: RuleLine[] = [];
  let y = 90;
  for (const element of elements) {
    if (element.type === 'Title') {
      blocks.push({ text: element.text, x: LEFT, y: y + 20, fontSize: 40, bold: true });
      y += 90;
    } else if (element.type === 'Table') {
      const cells = element.cells!;
      const columnWidth = (WIDTH - 2 * LEFT) / cells[0]!.length;
      const rowHeight = 46;
      for (const [r, row] of cells.entries()) {
        for (const [c, cell] of row.entries()) {
          blocks.push({
            text: cell,
            x: LEFT + c * columnWidth + 14,
            y: y + r * rowHeight + 31,
            fontSize: BODY,
          });
        }
      }
      if (options.ruledTables) {
        for (let r = 0; r <= cells.length; r++)
          rules.push({ x0: LEFT, y0: y + r * rowHeight, x1: WIDTH - LEFT, y1: y + r * rowHeight });
        for (let c = 0; c <= cells[0]!.length; c++) {
          const x = LEFT + c * columnWidth;
          rules.push({ x0: x, y0: y, x1: x, y1: y + cells.length * rowHeight });
        }
      }
      y += cells.length * rowHeight + 50;
    } else {
      const text = element.type === 'ListItem' ? `• ${element.text}` : element.text;
      for (const line of wrap(text, 80)) {
        blocks.push({
          text: line,
          x: element.type === 'ListItem' ? LEFT + 20 : LEFT,
          y: y + 20,
          fontSize: BODY,
          family: 'DejaVu Serif',
        });
        y += BODY * 1.45;
      }
      y += element.type === 'ListItem' ? 8 : 26;
    }
  }
  return { blocks, rules, expected: elements, height: Math.ceil(y + 80) };
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(' ')) {
    if (current !== '' && current.length + 1 + word.length > width) {
      lines.push(current);
      current = word;
    } else current = current === '' ? word : `${current} ${word}`;
  }
  if (current !== '') lines.push(current);
  return lines;
}

const REPORT: ExpectedElement[] = [
  { type: 'Title', text: 'Harbour Maintenance Report' },
  {
    type: 'NarrativeText',
    text: 'The harbour authority inspected all three piers in April. Most structures are in good condition, but the fenders on the second pier need to be replaced before the summer season begins.',
  },
  { type: 'ListItem', text: 'Replace the damaged fenders on pier two.' },
  { type: 'ListItem', text: 'Repaint the safety markings before June.' },
  {
    type: 'Table',
    text: '',
    cells: [
      ['Pier', 'Condition', 'Cost'],
      ['North', 'Good', '1,200'],
      ['Central', 'Fair', '8,450'],
      ['South', 'Poor', '23,900'],
    ],
  },
  {
    type: 'NarrativeText',
    text: 'The total cost of the planned repairs is covered by the maintenance budget approved last year.',
  },
];

for (const element of REPORT)
  if (element.type === 'Table') element.text = element.cells!.map((row) => row.join(' ')).join('\n');

const COLUMN_TEXT = [
  'Visitors arrived early on Saturday and the market was busy until noon. Stall holders reported strong sales of fresh bread, cheese and early vegetables, and several of them sold out before eleven. The new layout of the square made it easier to move between the rows of stalls.',
  'In the afternoon the weather turned and most stalls closed before four. The organisers will add covered space for the autumn market and ask the town council for permission to use the old hall when it rains. Volunteers are needed to set up the tents on Friday evening.',
];

/** Column text at the proportions of a printed two-column page: 10 pt type, 7-8 words a line. */
const COLUMN_FONT = 21;

function twoColumnPage(): { drawing: PageDrawing; expected: ExpectedElement[] } {
  const blocks: TextBlock[] = [{ text: 'Weekend Market Notes', x: LEFT, y: 110, fontSize: 40, bold: true }];
  const columnWidth = (WIDTH - 2 * LEFT - 60) / 2;
  for (const [column, text] of COLUMN_TEXT.entries()) {
    for (const [index, line] of wrap(text, 40).entries()) {
      const x = LEFT + column * (columnWidth + 60);
      blocks.push({
        text: line,
        x,
        y: 200 + index * COLUMN_FONT * 1.45,
        fontSize: COLUMN_FONT,
        family: 'DejaVu Serif',
      });
    }
  }
  return {
    drawing: { width: WIDTH, height: 600, blocks },
    expected: [
      { type: 'Title', text: 'Weekend Market Notes' },
      ...COLUMN_TEXT.map((text) => ({ type: 'NarrativeText' as const, text })),
    ],
  };
}

interface Variant {
  name: string;
  format: 'png' | 'tiff' | 'jpeg';
  degradation?: Degradation;
}

const VARIANTS: Variant[] = [
  { name: 'clean', format: 'png' },
  { name: 'noisy', format: 'tiff', degradation: { noise: 35, blur: 0.7, jpegQuality: 55 } },
  { name: 'skewed', format: 'jpeg', degradation: { skewDegrees: 2, noise: 15 } },
];

async function encode(drawing: PageDrawing, variant: Variant): Promise<Uint8Array> {
  let image = await drawPage(drawing);
  if (variant.degradation) image = await degrade(image, variant.degradation);
  const raw = sharp(image.data, { raw: { width: image.width, height: image.height, channels: 4 } }).flatten({
    background: '#ffffff',
  });
  return new Uint8Array(await raw.toFormat(variant.format).toBuffer());
}

export const source: CaseSource = {
  area: 'scans',
  async cases() {
    const ruled = layout(REPORT, { ruledTables: true });
    const unruled = layout(REPORT, { ruledTables: false });
    const documents = [
      {
        name: 'report-ruled',
        drawing: { width: WIDTH, height: ruled.height, blocks: ruled.blocks, rules: ruled.rules },
        expected: ruled.expected,
        variants: VARIANTS,
      },
      {
        name: 'report-unruled',
        drawing: { width: WIDTH, height: unruled.height, blocks: unruled.blocks },
        expected: unruled.expected,
        variants: VARIANTS.slice(0, 1),
      },
      { name: 'two-columns', ...twoColumnPage(), variants: VARIANTS.slice(0, 2) },
    ];
    const cases: EvalCase[] = [];
    for (const document of documents) {
      for (const variant of document.variants) {
        const data = await encode(document.drawing, variant);
        for (const agent of ['ppocr', 'tesseract'] satisfies OcrAgent[]) {
          cases.push({
            name: `scans/${document.name}-${variant.name}-${agent}`,
            format: `scan (${agent})`,
            filename: `${document.name}.${variant.format === 'jpeg' ? 'jpg' : variant.format}`,
            data,
            options: { ocr_agent: agent, pdf_infer_table_structure: true },
            expected: document.expected,
          });
        }
      }
    }
    return cases;
  },
};
