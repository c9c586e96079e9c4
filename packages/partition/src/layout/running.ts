import type { LayoutItem, PageLayout } from './page.js';

/**
 * Running headers, footers and page numbers, decided over the whole document: text in the top or
 * bottom band of the page that repeats on other pages (digits ignored, so "Page 3 of 9" repeats as
 * "Page # of #") is a Header or Footer; a bare number there is a PageNumber. A one-page document has
 * nothing to repeat, so small text hugging the page edge counts by position alone.
 */

export type RunningType = 'Header' | 'Footer' | 'PageNumber';

/** The top and bottom bands, as shares of the page height. */
const BAND = 0.12;
/** Without repetition, only text this close to the edge is a header/footer. */
const EDGE_BAND = 0.06;
/** Running text is short. */
const MAX_WORDS = 25;
const MAX_LINES = 3;
/** A bare page number: "7", "- 7 -", "(7)", "vii", "7/12". */
const PAGE_NUMBER = /^[-–—([]?\s*(?:\d{1,4}|[ivxlcdm]{1,7})\s*(?:[/|]\s*\d{1,4})?\s*[-–—)\]]?$/i;

export function isPageNumberText(text: string): boolean {
  return PAGE_NUMBER.test(text.trim());
}

function band(item: LayoutItem, page: PageLayout, share: number): 'top' | 'bottom' | undefined {
  if (item.kind !== 'text' || item.lineCount > MAX_LINES) return undefined;
  if (item.y1 <= share * page.height) return 'top';
  if (item.y0 >= (1 - share) * page.height) return 'bottom';
  return undefined;
}

function key(text: string): string {
  return text.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ').trim();
}

export function findRunningItems(
  pages: readonly PageLayout[],
  bodyFontSize: number,
): Map<LayoutItem, RunningType> {
  const result = new Map<LayoutItem, RunningType>();
  const pagesWithKey = new Map<string, Set<number>>();
  const candidates: { item: LayoutItem; page: PageLayout; where: 'top' | 'bottom'; key: string }[] = [];
  for (const [pageIndex, page] of pages.entries()) {
    for (const item of page.items) {
      const where = band(item, page, BAND);
      if (!where || item.text.split(/\s+/).length > MAX_WORDS) continue;
      const itemKey = `${where}|${key(item.text)}`;
      candidates.push({ item, page, where, key: itemKey });
      const seen = pagesWithKey.get(itemKey) ?? new Set<number>();
      seen.add(pageIndex);
      pagesWithKey.set(itemKey, seen);
    }
  }
  const repeatsNeeded = Math.max(2, Math.ceil(pages.length * 0.2));
  for (const { item, page, where, key: itemKey } of candidates) {
    if (isPageNumberText(item.text)) {
      result.set(item, 'PageNumber');
      continue;
    }
    // Running text is set no larger than the body; a chapter heading at the top of every page is not.
    if ((item.fontSize ?? 0) > bodyFontSize * 1.1) continue;
    const repeated =
      pages.length > 1 && (pagesWithKey.get(itemKey)?.size ?? 0) >= Math.min(repeatsNeeded, pages.length);
    const byPosition = !repeated && band(item, page, EDGE_BAND) === where;
    if (repeated || byPosition) result.set(item, where === 'top' ? 'Header' : 'Footer');
  }
  return result;
}
