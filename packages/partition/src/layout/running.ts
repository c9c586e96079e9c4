import type { LayoutItem, PageLayout } from './page.js';

/**
 * Running headers, footers and page numbers, decided over the whole document: text in the top or
 * bottom band of the page that repeats on other pages (digits ignored, so "Page 3 of 9" repeats as
 * "Page # of #") is a Header or Footer; a bare number there is a PageNumber. So is a short line there
 * that starts or ends with the page's own number (a running head on a page whose neighbours differ, as
 * left and right pages of papers do). A one-page document has nothing to repeat, so small text hugging
 * the page edge counts by position alone.
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

/** A running head with the page's own number at its start or end ("2 Z. Shen et al.", "Results 7"). */
const MAX_NUMBERED_WORDS = 12;
const NUMBERED_BAND = 0.2;

function carriesPageNumber(text: string, pageNumber: number): boolean {
  const words = text.trim().split(/\s+/);
  if (words.length < 2 || words.length > MAX_NUMBERED_WORDS) return false;
  return words[0] === String(pageNumber) || words.at(-1) === String(pageNumber);
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
  // Text beside the page number, on its row, is the rest of the running head ("454   O. Sanni, A.P.I.
  // Popoola / Data in Brief 22 (2019) 451–457"), repeated or not.
  for (const { item, page, where } of candidates) {
    if (result.has(item) || (item.fontSize ?? 0) > bodyFontSize * 1.1) continue;
    const besideNumber = page.items.some(
      (other) =>
        result.get(other) === 'PageNumber' &&
        Math.min(other.y1, item.y1) - Math.max(other.y0, item.y0) >
          0.5 * Math.min(other.y1 - other.y0, item.y1 - item.y0),
    );
    if (besideNumber) result.set(item, where === 'top' ? 'Header' : 'Footer');
  }
  // A running head with the page's own number needs no repetition (left and right pages of papers
  // differ). It is the first or last text of its page, in a wider band: book margins are deep.
  for (const page of pages) {
    const texts = page.items.filter((item) => item.kind === 'text' && !result.has(item));
    if (texts.length < 2) continue;
    const top = texts.reduce((a, b) => (b.y0 < a.y0 ? b : a));
    const bottom = texts.reduce((a, b) => (b.y1 > a.y1 ? b : a));
    for (const [item, where] of [
      [top, 'top'],
      [bottom, 'bottom'],
    ] as const) {
      if (band(item, page, NUMBERED_BAND) !== where || (item.fontSize ?? 0) > bodyFontSize * 1.1) continue;
      if (carriesPageNumber(item.text, page.pageNumber))
        result.set(item, where === 'top' ? 'Header' : 'Footer');
    }
  }
  return result;
}
