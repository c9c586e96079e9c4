import type { ElementType } from '../elements/element-types.js';
import { alphaRatio, classifyText, isBulleted, isNumeric, stripBullet } from '../text/text-type.js';
import type { LayoutItem, PageLayout } from './page.js';
import type { LayoutLabel } from './types.js';

/**
 * The type of each text item, using the document's typography: the body font size is the size most
 * text is set in; noticeably larger text, or bold text in a body that is not bold, is a heading when it
 * is short; list markers make list items; "Figure 3:" and "Table 2." make captions; the rest goes through
 * the plain-text heuristics (text/text-type.ts).
 */

export interface Typography {
  /** Most common font size, weighted by characters. */
  bodySize: number;
  /** Whether most body text is bold (then bold marks nothing). */
  bodyBold: boolean;
  /** Distinct heading sizes, largest first: index = category_depth. */
  headingSizes: number[];
}

/** A heading is at least this much larger than the body. */
const HEADING_SIZE_RATIO = 1.15;
const MAX_HEADING_WORDS = 20;
const MAX_HEADING_LINES = 3;
const CAPTION =
  /^(?:fig(?:ure)?\.?|table|tab\.|chart|exhibit|plate|image|photo|diagram|graph|scheme|listing)\s*[0-9IVXivx]+[a-z]?\s*[:.\-–—|]/i;

/** Layout-model labels → element types (a model's label is taken as given, like hi_res users expect). */
export const LABEL_TYPES: Record<LayoutLabel, ElementType> = {
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

const round = (size: number) => Math.round(size * 2) / 2;

export function measureTypography(pages: readonly PageLayout[]): Typography {
  const bySize = new Map<number, number>();
  let boldChars = 0;
  let allChars = 0;
  for (const page of pages) {
    for (const item of page.items) {
      if (item.kind !== 'text' || item.fontSize === undefined) continue;
      const size = round(item.fontSize);
      bySize.set(size, (bySize.get(size) ?? 0) + item.text.length);
      allChars += item.text.length;
      if (item.bold) boldChars += item.text.length;
    }
  }
  let bodySize = 10;
  let most = -1;
  for (const [size, count] of bySize) {
    if (count > most) {
      most = count;
      bodySize = size;
    }
  }
  const typography: Typography = { bodySize, bodyBold: boldChars > allChars / 2, headingSizes: [] };
  const headingSizes = new Set<number>();
  for (const page of pages) {
    for (const item of page.items) {
      if (item.kind === 'text' && item.fontSize !== undefined && isHeadingByFont(item, typography)) {
        headingSizes.add(round(item.fontSize));
      }
    }
  }
  typography.headingSizes = [...headingSizes].sort((a, b) => b - a);
  return typography;
}

function isHeadingByFont(item: LayoutItem, typography: Typography): boolean {
  if (item.lineCount > MAX_HEADING_LINES) return false;
  // Typography first: it rules out body text before any text test runs.
  const size = item.fontSize ?? typography.bodySize;
  const larger = size >= typography.bodySize * HEADING_SIZE_RATIO;
  const emphasised = Boolean(item.bold) && !typography.bodyBold && size >= typography.bodySize * 0.95;
  if (!larger && !emphasised) return false;
  const text = item.text.trim();
  // Numbered headings ("2.1 Methods") look like list items; bulleted lines never are headings.
  if (isBulleted(text)) return false;
  const words = text.split(/\s+/).length;
  if (words > MAX_HEADING_WORDS || alphaRatio(text) < 0.5 || isNumeric(text)) return false;
  // Body-size bold text must look like a heading, not like a bold sentence.
  if (!larger && (words > 12 || /[.,;]$/.test(text))) return false;
  return !/,$/.test(text);
}

export interface Classification {
  type: ElementType;
  text: string;
  depth?: number;
}

export function classifyItem(item: LayoutItem, typography: Typography): Classification {
  if (item.region) {
    const type = LABEL_TYPES[item.region.label];
    return { type, text: type === 'ListItem' ? stripBullet(item.text) || item.text : item.text };
  }
  if (item.code) return { type: 'CodeSnippet', text: item.text.replace(/\s+$/, '') };
  const text = item.text.trim();
  if (CAPTION.test(text)) return { type: 'FigureCaption', text };
  if (isHeadingByFont(item, typography)) {
    const size = round(item.fontSize ?? typography.bodySize);
    let depth = typography.headingSizes.indexOf(size);
    if (depth < 0) depth = typography.headingSizes.length;
    return { type: 'Title', text, depth: Math.min(depth, 5) };
  }
  if (item.listItem) {
    const classified = classifyText(text);
    return { type: 'ListItem', text: classified.type === 'ListItem' ? classified.text : text };
  }
  const classified = classifyText(text);
  // Where typography can tell headings apart, a body-size plain line is not one.
  if (classified.type === 'Title' && typography.headingSizes.length > 0) {
    return { type: 'UncategorizedText', text: classified.text };
  }
  if (classified.type === 'Title') return { ...classified, depth: 0 };
  return classified;
}
