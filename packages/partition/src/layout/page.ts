import type { TableRow } from '../elements/table-html.js';
import { buildBlocks } from './blocks.js';
import { area, coverage, height, union, width } from './geometry.js';
import { assembleLines, joinRowFragments } from './lines.js';
import { readingOrder } from './reading-order.js';
import { forcedTable } from './table-align.js';
import { cellText, detectTables } from './tables.js';
import type {
  Box,
  CoordinateSystemName,
  ImageRegion,
  LayoutLabel,
  LayoutRegion,
  PageInput,
  TextLine,
} from './types.js';

/**
 * One page of input → its content items in reading order: text blocks, tables and pictures. This is
 * the per-page half of layout (it runs in page workers); document-wide decisions (body font size,
 * titles, running headers) are made afterwards in classify.ts over all pages' items.
 */

export interface LayoutItem extends Box {
  kind: 'text' | 'table' | 'image';
  text: string;
  /** Text blocks: typical font size, weight and style. */
  fontSize?: number;
  bold?: boolean;
  italic?: boolean;
  /** The text starts with a list bullet or number. */
  listItem?: boolean;
  /** A code listing (monospaced lines; text keeps line breaks and indents). */
  code?: boolean;
  lineCount: number;
  /** Where the text came from; 'ocr' when any line did. */
  origin: TextLine['origin'];
  /** Lowest OCR confidence of the item's lines. */
  confidence?: number;
  /** The layout-model region that decided this item's type, when there was one. */
  region?: { label: LayoutLabel; probability: number };
  table?: { rows: TableRow[]; headerRows: number; method: 'ruled' | 'aligned' | 'region' };
  image?: { data?: Uint8Array; mimeType?: string };
}

export interface PageLayout {
  pageNumber: number;
  width: number;
  height: number;
  system: CoordinateSystemName;
  /** Items in reading order. */
  items: LayoutItem[];
}

/** Pictures smaller than this share of the page width or height are decoration (icons, rules, logos). */
const MIN_IMAGE_SHARE = 0.04;
/** Pictures covering more than this share of the page are backgrounds (scans, watermarks, page art). */
const MAX_IMAGE_AREA_SHARE = 0.5;
/** A line belongs to a layout region when this share of it lies inside the region. */
const REGION_COVERAGE = 0.5;

export function analysePage(page: PageInput): PageLayout {
  const items: LayoutItem[] = [];
  let lines = assembleLines(page.lines);
  let pictureRegions: LayoutRegion[] = [];
  if (page.regions && page.regions.length > 0) {
    const result = regionItems(lines, page.regions);
    items.push(...result.items);
    lines = result.rest;
    pictureRegions = page.regions.filter((region) => region.label === 'Picture');
  }

  // Vertical text (margin stamps, rotated labels) is kept whole and out of rows, tables and paragraphs.
  const vertical = lines.filter((line) => line.vertical);
  lines = lines.filter((line) => !line.vertical);
  const rules = page.rules ?? [];
  const { tables, consumed } = detectTables(lines, rules);
  for (const table of tables) {
    items.push({
      x0: table.x0,
      y0: table.y0,
      x1: table.x1,
      y1: table.y1,
      kind: 'table',
      text: '',
      lineCount: table.rows.length,
      origin: page.lines.find((line) => line.origin !== 'text_layer')?.origin ?? 'text_layer',
      table: { rows: table.rows, headerRows: table.headerRows, method: table.method },
    });
  }
  const free = joinRowFragments(lines.filter((_, index) => !consumed.has(index)));
  const sideways = sidewaysOrder(vertical, lines);
  for (const block of [...buildBlocks(free, rules), ...sideways.map((line) => buildBlocks([line])[0]!)]) {
    items.push({
      x0: block.x0,
      y0: block.y0,
      x1: block.x1,
      y1: block.y1,
      kind: 'text',
      text: block.text,
      fontSize: block.fontSize,
      bold: block.bold,
      italic: block.italic,
      listItem: block.listItem,
      code: block.code,
      lineCount: block.lines.length,
      ...lineOrigin(block.lines),
    });
  }
  for (const image of page.images ?? []) {
    if (!isContentImage(image, page)) continue;
    if (pictureRegions.some((region) => coverage(image, region) > 0.5)) continue;
    items.push(imageItem(image));
  }
  const keepOrder = sideways.length > 0 && lines.length === 0;
  return {
    pageNumber: page.pageNumber,
    width: page.width,
    height: page.height,
    system: page.system,
    // A page of sideways text keeps the order of its lines (see sidewaysOrder).
    items: keepOrder ? items : pageOrder(items, page.height),
  };
}

/**
 * Vertical lines in reading order when they are all the page has (a page whose text is turned a
 * quarter): text running down stacks its lines right to left, text running up left to right.
 */
function sidewaysOrder(vertical: TextLine[], horizontal: TextLine[]): TextLine[] {
  if (vertical.length === 0 || horizontal.length > 0) return vertical;
  const down = vertical.filter((line) => line.verticalFlow === 'down').length * 2 > vertical.length;
  return [...vertical].sort((a, b) => (down ? b.x0 - a.x0 : a.x0 - b.x0) || a.y0 - b.y0);
}

/** Share of the page height at the top and bottom where running headers and footers live. */
const MARGIN_BAND = 0.1;

/**
 * Items wholly inside the top margin band come first (left to right), those inside the bottom band
 * last; the body in between is ordered by the column rules (reading-order.ts). Without this, a short
 * heading at the left of the first body line would precede a centred running header above it.
 */
function pageOrder(items: LayoutItem[], pageHeight: number): LayoutItem[] {
  const top = items.filter((item) => item.y1 <= MARGIN_BAND * pageHeight);
  const bottom = items.filter((item) => item.y0 >= (1 - MARGIN_BAND) * pageHeight && !top.includes(item));
  const body = items.filter((item) => !top.includes(item) && !bottom.includes(item));
  const byRow = (a: LayoutItem, b: LayoutItem) => a.y0 - b.y0 || a.x0 - b.x0;
  return [...top.sort(byRow), ...readingOrder(body).map((index) => body[index]!), ...bottom.sort(byRow)];
}

function isContentImage(image: ImageRegion, page: PageInput): boolean {
  if (width(image) < MIN_IMAGE_SHARE * page.width || height(image) < MIN_IMAGE_SHARE * page.height)
    return false;
  return area(image) <= MAX_IMAGE_AREA_SHARE * page.width * page.height;
}

function imageItem(image: ImageRegion, text = ''): LayoutItem {
  const item: LayoutItem = {
    x0: image.x0,
    y0: image.y0,
    x1: image.x1,
    y1: image.y1,
    kind: 'image',
    text,
    lineCount: 0,
    origin: 'text_layer',
  };
  if (image.data) item.image = { data: image.data, mimeType: image.mimeType ?? 'image/png' };
  return item;
}

function lineOrigin(lines: readonly TextLine[]): { origin: TextLine['origin']; confidence?: number } {
  const ocr = lines.filter((line) => line.origin !== 'text_layer');
  if (ocr.length === 0) return { origin: 'text_layer' };
  const confidences = ocr.map((line) => line.confidence).filter((c): c is number => c !== undefined);
  const result: { origin: TextLine['origin']; confidence?: number } = { origin: ocr[0]!.origin };
  if (confidences.length > 0) result.confidence = Math.min(...confidences);
  return result;
}

/**
 * Items decided by a layout model: the lines inside each region form one item whose type the region's
 * label gives (tables get their cells from the lines' alignment). Lines outside every region are left
 * for the heuristics.
 */
function regionItems(
  lines: TextLine[],
  regions: readonly LayoutRegion[],
): { items: LayoutItem[]; rest: TextLine[] } {
  const members: TextLine[][] = regions.map(() => []);
  const rest: TextLine[] = [];
  for (const line of lines) {
    let best = -1;
    let bestCoverage = REGION_COVERAGE;
    regions.forEach((region, index) => {
      const share = coverage(line, region);
      if (share >= bestCoverage) {
        best = index;
        bestCoverage = share;
      }
    });
    if (best >= 0) members[best]!.push(line);
    else rest.push(line);
  }
  const items: LayoutItem[] = [];
  regions.forEach((region, index) => {
    const inside = members[index]!;
    const probability = region.probability;
    if (region.label === 'Picture') {
      const item = imageItem(region, cellText(inside));
      item.region = { label: region.label, probability };
      items.push(item);
      return;
    }
    if (inside.length === 0) return;
    const box = union([region, ...inside]);
    if (region.label === 'Table') {
      const rows = forcedTable(inside);
      items.push({
        ...box,
        kind: 'table',
        text: '',
        lineCount: rows.length,
        ...lineOrigin(inside),
        region: { label: region.label, probability },
        table: { rows, headerRows: 0, method: 'region' },
      });
      return;
    }
    const blocks = buildBlocks(inside);
    const sizes = inside.map((line) => line.fontSize ?? height(line) * 0.8);
    items.push({
      ...box,
      kind: 'text',
      text: blocks.map((block) => block.text).join(' '),
      fontSize: sizes.reduce((a, b) => a + b, 0) / sizes.length,
      bold: inside.every((line) => line.bold),
      italic: inside.every((line) => line.italic),
      listItem: blocks[0]?.listItem ?? false,
      lineCount: inside.length,
      ...lineOrigin(inside),
      region: { label: region.label, probability },
    });
  });
  return { items, rest };
}
