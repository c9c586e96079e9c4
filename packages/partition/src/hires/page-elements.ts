import { draft, type ElementDraft } from '../elements/element.js';
import type { ElementType } from '../elements/element-types.js';
import type { ElementMetadata } from '../elements/metadata.js';
import { tableToHtml, tableToText } from '../elements/table-html.js';
import type { Box, LayoutLabel, LayoutRegion, TextLine } from '../layout/types.js';
import { classifyText, isBulleted, isNumberedListItem } from '../text/text-type.js';
import type { AnalysedPage } from './analyse-page.js';
import { centreY, groupRows, height, median, overlapShare, union } from './rows.js';
import { tableCells } from './table-structure.js';

/**
 * Elements of pages analysed in PixelSpace: layout regions first (tables get their cell structure,
 * pictures become Image elements), then the remaining lines grouped into blocks, read column by column,
 * and classified — by the region label when a layout model labelled the block, else by position
 * (header/footer bands) and the shared text heuristics, with large type read as a Title.
 */

/** DocLayNet label → element type (the mapping users of hi_res layout models know). */
const LABEL_TYPES: Record<LayoutLabel, ElementType> = {
  Caption: 'FigureCaption',
  Footnote: 'Footer',
  Formula: 'Formula',
  'List-item': 'ListItem',
  'Page-footer': 'Footer',
  'Page-header': 'Header',
  Picture: 'Image',
  'Section-header': 'Title',
  Table: 'Table',
  Text: 'NarrativeText',
  Title: 'Title',
};

/** Lines in the top or bottom band of the page (share of its height) are running headers/footers. */
const HEADER_BAND = 0.06;
/** Blocks whose type is this much larger than the page's body text read as titles. */
const TITLE_SIZE_RATIO = 1.3;
/** Lines closer than this many line heights (vertically) belong to one block. */
const BLOCK_GAP = 0.9;

interface Block extends Box {
  lines: TextLine[];
  region?: LayoutRegion | undefined;
}

export function pageElements(page: AnalysedPage): ElementDraft[] {
  const regions = page.regions ?? [];
  const tables = regions.filter((region) => region.label === 'Table');
  const pictures = [
    ...regions.filter((region) => region.label === 'Picture'),
    ...(page.images ?? []).map((image) => ({ ...image, label: 'Picture' as const, probability: 1 })),
  ];
  const inTable = (line: TextLine) => tables.some((table) => overlapShare(line, table) > 0.5);
  const inPicture = (line: TextLine) => pictures.some((picture) => overlapShare(line, picture) > 0.5);
  const freeLines = page.lines.filter((line) => !inTable(line) && !inPicture(line));
  const bodySize = median(freeLines.map((line) => line.fontSize ?? height(line)));

  const items: { box: Box; element: ElementDraft }[] = [];
  for (const table of tables) {
    const rows = tableCells(table, page.lines, page.rules ?? []);
    if (rows.length === 0) continue;
    const lines = page.lines.filter((line) => overlapShare(line, table) > 0.5);
    const element = draft('Table', tableToText(rows), {
      ...baseMetadata(page, table, lines),
      text_as_html: tableToHtml(rows),
      detection_class_prob: table.probability,
    });
    items.push({ box: table, element });
  }
  for (const picture of dedupe(pictures)) {
    const lines = page.lines.filter((line) => overlapShare(line, picture) > 0.5);
    const metadata: ElementMetadata = { ...baseMetadata(page, picture, lines) };
    const image = picture as { data?: Uint8Array; mimeType?: string };
    if (image.data && image.mimeType) {
      metadata.image_base64 = Buffer.from(image.data).toString('base64');
      metadata.image_mime_type = image.mimeType;
    }
    items.push({ box: picture, element: draft('Image', joinLines(lines), metadata) });
  }
  for (const block of buildBlocks(freeLines, regions)) {
    const text = joinLines(block.lines);
    if (text === '') continue;
    const { type, text: cleaned } = classifyBlock(block, text, page, bodySize);
    const metadata = baseMetadata(page, block, block.lines);
    if (block.region) metadata.detection_class_prob = block.region.probability;
    items.push({ box: block, element: draft(type, cleaned, metadata) });
  }
  return readingOrder(items).map((item) => item.element);
}

function classifyBlock(
  block: Block,
  text: string,
  page: AnalysedPage,
  bodySize: number,
): { type: ElementType; text: string } {
  if (block.region && block.region.label !== 'Text') return { type: LABEL_TYPES[block.region.label], text };
  const classified = classifyText(text);
  if (block.y1 < page.height * HEADER_BAND)
    return { type: classified.type === 'PageNumber' ? 'PageNumber' : 'Header', text };
  if (block.y0 > page.height * (1 - HEADER_BAND))
    return { type: classified.type === 'PageNumber' ? 'PageNumber' : 'Footer', text };
  const size = median(block.lines.map((line) => line.fontSize ?? height(line)));
  const short = text.split(/\s+/).length <= 15 && !/[.:;,]$/.test(text);
  if (bodySize > 0 && size >= bodySize * TITLE_SIZE_RATIO && short && classified.type !== 'ListItem') {
    return { type: 'Title', text };
  }
  return classified;
}

/** Rows of lines, merged into blocks while they are close, overlap horizontally and share a region. */
function buildBlocks(lines: readonly TextLine[], regions: readonly LayoutRegion[]): Block[] {
  const regionOf = (line: TextLine) =>
    regions.find((region) => region.label !== 'Table' && overlapShare(line, region) > 0.5);
  const blocks: Block[] = [];
  for (const row of groupRows(lines)) {
    for (const line of row) {
      const region = regionOf(line);
      const lineHeight = height(line);
      // A bullet or number at the start of a line begins a list item of its own.
      const startsItem = isBulleted(line.text) || isNumberedListItem(line.text);
      const target = startsItem
        ? undefined
        : blocks.find((block) => {
            const last = block.lines.at(-1)!;
            const gap = line.y0 - last.y1;
            const overlapsX = Math.min(block.x1, line.x1) - Math.max(block.x0, line.x0) > 0;
            const sameSize = Math.abs(height(last) - lineHeight) < Math.max(height(last), lineHeight) * 0.35;
            return (
              block.region === region &&
              overlapsX &&
              sameSize &&
              gap > -lineHeight * 0.5 &&
              gap < lineHeight * BLOCK_GAP &&
              centreY(line) > centreY(last)
            );
          });
      if (target) {
        target.lines.push(line);
        Object.assign(target, union([target, line]));
      } else {
        blocks.push({ ...union([line]), lines: [line], region });
      }
    }
  }
  return blocks;
}

/**
 * Reading order by recursive XY-cut: split the items into horizontal bands wherever no item spans a
 * vertical gap, and each band into columns wherever no item spans a horizontal gap; read bands top to
 * bottom and columns left to right. A full-width title above two columns is its own band, so each column
 * below it is read whole before the next.
 */
function readingOrder<T extends { box: Box }>(items: readonly T[]): T[] {
  if (items.length <= 1) return [...items];
  for (const axis of ['y', 'x'] as const) {
    const groups = cut(items, axis);
    if (groups.length > 1) return groups.flatMap((group) => readingOrder(group));
  }
  return [...items].sort((a, b) => a.box.y0 - b.box.y0 || a.box.x0 - b.box.x0);
}

function cut<T extends { box: Box }>(items: readonly T[], axis: 'x' | 'y'): T[][] {
  const start = (item: T) => (axis === 'y' ? item.box.y0 : item.box.x0);
  const end = (item: T) => (axis === 'y' ? item.box.y1 : item.box.x1);
  const sorted = [...items].sort((a, b) => start(a) - start(b));
  const groups: T[][] = [];
  let reach = Number.NEGATIVE_INFINITY;
  for (const item of sorted) {
    // Items may touch by a pixel or two (rounded boxes); only a real gap separates groups.
    if (groups.length === 0 || start(item) > reach - 1) groups.push([item]);
    else groups.at(-1)!.push(item);
    reach = Math.max(reach, end(item));
  }
  return groups;
}

function joinLines(lines: readonly TextLine[]): string {
  let text = '';
  for (const row of groupRows([...lines])) {
    for (const line of row) {
      const part = line.text.trim();
      if (part === '') continue;
      // A word broken by a hyphen at the end of a line is one word.
      if (text.endsWith('-') && /^\p{Ll}/u.test(part)) text = text.slice(0, -1) + part;
      else text = text === '' ? part : `${text} ${part}`;
    }
  }
  return text;
}

function dedupe(regions: readonly LayoutRegion[]): LayoutRegion[] {
  const kept: LayoutRegion[] = [];
  for (const region of regions)
    if (!kept.some((other) => overlapShare(region, other) > 0.8)) kept.push(region);
  return kept;
}

function baseMetadata(page: AnalysedPage, box: Box, lines: readonly TextLine[]): ElementMetadata {
  const fromOcr = lines.some((line) => line.origin === 'ocr');
  const fromTextLayer = lines.some((line) => line.origin === 'text_layer');
  const origins = [
    fromTextLayer ? 'pdf_text_layer' : undefined,
    fromOcr ? page.ocrEngine : undefined,
    page.layoutModel,
  ]
    .filter(Boolean)
    .join('+');
  return {
    page_number: page.pageNumber,
    coordinates: {
      points: [
        [box.x0, box.y0],
        [box.x0, box.y1],
        [box.x1, box.y1],
        [box.x1, box.y0],
      ],
      system: 'PixelSpace',
      layout_width: page.width,
      layout_height: page.height,
    },
    is_extracted: lines.length > 0 ? !fromOcr : undefined,
    detection_origin: origins || undefined,
  };
}
