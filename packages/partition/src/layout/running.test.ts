import { describe, expect, it } from 'vitest';
import type { LayoutItem, PageLayout } from './page.js';
import { findRunningItems, isPageNumberText } from './running.js';

function item(text: string, y0: number, fontSize = 9): LayoutItem {
  return {
    kind: 'text',
    text,
    x0: 72,
    x1: 300,
    y0,
    y1: y0 + 10,
    fontSize,
    lineCount: 1,
    origin: 'text_layer',
  };
}

function page(pageNumber: number, items: LayoutItem[]): PageLayout {
  return { pageNumber, width: 612, height: 792, system: 'PointSpace', items };
}

describe('running headers and footers', () => {
  it('needs repetition (digits ignored) and the margin bands, and no larger type than the body', () => {
    const pages = [1, 2, 3].map((n) =>
      page(n, [
        item('Annual Review 2025', 30),
        item(`Chapter ${n}`, 60, 18),
        item('Body text of the page that is long enough.', 300, 10),
        item(`Page ${n} of 3`, 760),
        item(String(n), 770),
      ]),
    );
    const running = findRunningItems(pages, 10);
    const types = pages.flatMap((p) => p.items.map((i) => running.get(i) ?? '-'));
    expect(types).toEqual([
      ...['Header', '-', '-', 'Footer', 'PageNumber'],
      ...['Header', '-', '-', 'Footer', 'PageNumber'],
      ...['Header', '-', '-', 'Footer', 'PageNumber'],
    ]);
  });

  it('on a single page, only text hugging the edge counts', () => {
    const single = [page(1, [item('Confidential', 10), item('A title near the top', 80)])];
    const running = findRunningItems(single, 10);
    expect(running.get(single[0]!.items[0]!)).toBe('Header');
    expect(running.get(single[0]!.items[1]!)).toBeUndefined();
  });

  it('takes a short line in the band that carries its own page number for a running head', () => {
    const pages = [
      page(1, [
        item('A Unified Toolkit for Document Analysis', 80, 14),
        item('Body text of the page.', 300, 10),
      ]),
      page(2, [item('2 Z. Shen et al.', 93), item('Body text of the page.', 300, 10)]),
      page(3, [
        item('A Unified Toolkit 3', 80),
        item('Table 3 shows the results', 85),
        item('Body.', 300, 10),
      ]),
    ];
    const running = findRunningItems(pages, 10);
    expect(pages.map((p) => p.items.map((i) => running.get(i) ?? '-'))).toEqual([
      ['-', '-'],
      ['Header', '-'],
      ['Header', '-', '-'],
    ]);
  });

  it('takes the text on the row of a page number for the rest of the running head', () => {
    const single = [
      page(1, [
        { ...item('454', 60), x0: 60, x1: 75 },
        { ...item('O. Sanni, A.P.I. Popoola / Data in Brief 22 (2019) 451–457', 60), x0: 200, x1: 540 },
        item('Body text of the page that is long enough.', 300, 10),
      ]),
    ];
    const running = findRunningItems(single, 10);
    expect(single[0]!.items.map((i) => running.get(i) ?? '-')).toEqual(['PageNumber', 'Header', '-']);
  });

  it('knows page numbers', () => {
    for (const text of ['7', '- 7 -', 'vii', '7/12', '(12)']) expect(isPageNumberText(text)).toBe(true);
    for (const text of ['Page 7 of 12', '2025 Report', 'Chapter 7'])
      expect(isPageNumberText(text)).toBe(false);
  });
});
