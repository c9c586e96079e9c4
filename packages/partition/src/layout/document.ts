import { draft, type ElementDraft } from '../elements/element.js';
import type { ElementMetadata } from '../elements/metadata.js';
import { tableToHtml, tableToText } from '../elements/table-html.js';
import { classifyItem, measureTypography } from './classify.js';
import { analysePage, type LayoutItem, type PageLayout } from './page.js';
import { findRunningItems } from './running.js';
import type { Box, PageInput } from './types.js';

/**
 * The document half of layout: items of all pages → element drafts in reading order, with one
 * PageBreak after every page (finalize drops them unless include_page_breaks). This is the single entry
 * point for both inputs: `layoutDocument` takes pages from the PDF text layer or from OCR alike.
 */

export interface LayoutDocumentOptions {
  /** Put `metadata.text_as_html` on tables (default true). */
  tableStructure?: boolean;
  /** `metadata.detection_origin` of text-layer items (e.g. "pdfium"); OCR items use `ocrOrigin`. */
  textOrigin?: string;
  /** `metadata.detection_origin` of OCR items (the OCR engine name). */
  ocrOrigin?: string;
}

/** Pages (text layer or OCR) → element drafts. */
export function layoutDocument(
  pages: readonly PageInput[],
  options: LayoutDocumentOptions = {},
): ElementDraft[] {
  return classifyDocument(pages.map(analysePage), options);
}

/** Already analysed pages (e.g. from page workers) → element drafts. */
export function classifyDocument(
  pages: readonly PageLayout[],
  options: LayoutDocumentOptions = {},
): ElementDraft[] {
  const typography = measureTypography(pages);
  const running = findRunningItems(pages, typography.bodySize);
  const drafts: ElementDraft[] = [];
  for (const page of pages) {
    const listIndents: number[] = [];
    for (const item of page.items) {
      const metadata: ElementMetadata = {
        page_number: page.pageNumber,
        coordinates: coordinates(item, page),
        detection_origin:
          item.origin === 'text_layer'
            ? (options.textOrigin ?? 'text_layer')
            : (options.ocrOrigin ?? item.origin),
        is_extracted: item.origin === 'text_layer',
      };
      if (item.region) metadata.detection_class_prob = round(item.region.probability);
      const element = toDraft(item, metadata, running.get(item), typography, options, listIndents);
      if (element) drafts.push(element);
    }
    drafts.push(draft('PageBreak', '', { page_number: page.pageNumber }));
  }
  return drafts;
}

function toDraft(
  item: LayoutItem,
  metadata: ElementMetadata,
  runningType: ReturnType<ReturnType<typeof findRunningItems>['get']>,
  typography: ReturnType<typeof measureTypography>,
  options: LayoutDocumentOptions,
  listIndents: number[],
): ElementDraft | undefined {
  if (item.kind === 'table' && item.table) {
    const rows = item.table.rows;
    const text = tableToText(rows);
    if (text === '') return undefined;
    if (options.tableStructure !== false) {
      metadata.text_as_html = tableToHtml(rows, { headerRows: item.table.headerRows });
    }
    return draft('Table', text, metadata);
  }
  if (item.kind === 'image') {
    if (item.image?.data) {
      metadata.image_base64 = Buffer.from(item.image.data).toString('base64');
      metadata.image_mime_type = item.image.mimeType ?? 'image/png';
    }
    return draft('Image', item.text, metadata);
  }
  if (item.text.trim() === '') return undefined;
  if (runningType) return draft(runningType, item.text.trim(), metadata);
  const classified = classifyItem(item, typography);
  if (classified.text === '') return undefined;
  if (classified.type === 'Title' && classified.depth !== undefined)
    metadata.category_depth = classified.depth;
  if (classified.type === 'ListItem') {
    metadata.category_depth = listDepth(listIndents, item.x0, item.fontSize ?? typography.bodySize);
  } else {
    listIndents.length = 0;
  }
  return draft(classified.type, classified.text, metadata);
}

/** Nesting of a list item from its indent among the items of the current list (one em per level). */
function listDepth(indents: number[], x0: number, em: number): number {
  while (indents.length > 0 && x0 < indents[indents.length - 1]! - em / 2) indents.pop();
  if (indents.length === 0 || x0 > indents[indents.length - 1]! + em / 2) indents.push(x0);
  return indents.length - 1;
}

const round = (value: number) => Math.round(value * 1000) / 1000;

/** Corners from the top-left, counter-clockwise on screen: top-left, bottom-left, bottom-right, top-right. */
export function coordinates(
  box: Box,
  page: Pick<PageLayout, 'width' | 'height' | 'system'>,
): ElementMetadata['coordinates'] {
  const x0 = round(box.x0);
  const y0 = round(box.y0);
  const x1 = round(box.x1);
  const y1 = round(box.y1);
  return {
    points: [
      [x0, y0],
      [x0, y1],
      [x1, y1],
      [x1, y0],
    ],
    system: page.system,
    layout_width: round(page.width),
    layout_height: round(page.height),
  };
}
