import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkSync } from './chunk.js';
import { arbitraryElements, el, origOf } from './test-support/elements.js';

describe('by_page', () => {
  it('starts a new chunk at every page change and keeps page-less elements with the page before', () => {
    const elements = [
      el('NarrativeText', 'one', { page_number: 1 }),
      el('Footer', 'footer of one'),
      el('NarrativeText', 'two', { page_number: 2 }),
      el('NarrativeText', 'more two', { page_number: 2 }),
    ];
    const chunks = chunkSync(elements, { chunking_strategy: 'by_page' });
    expect(chunks.map((c) => [c.metadata.page_number, c.text])).toEqual([
      [1, 'one\n\nfooter of one'],
      [2, 'two\n\nmore two'],
    ]);
  });

  it('does not carry overlap_all text across a page change', () => {
    const elements = [
      el('NarrativeText', 'alpha beta', { page_number: 1 }),
      el('NarrativeText', 'gamma delta', { page_number: 1 }),
      el('NarrativeText', 'epsilon', { page_number: 2 }),
    ];
    const chunks = chunkSync(elements, {
      chunking_strategy: 'by_page',
      max_characters: 20,
      overlap: 6,
      overlap_all: true,
    });
    expect(chunks.map((c) => c.text)).toEqual(['alpha beta', 'beta\n\ngamma delta', 'epsilon']);
  });

  it('property: no chunk mixes pages', () => {
    fc.assert(
      fc.property(arbitraryElements, fc.integer({ min: 20, max: 400 }), (elements, max) => {
        for (const chunk of chunkSync(elements, { chunking_strategy: 'by_page', max_characters: max })) {
          const pages = new Set(
            origOf(chunk).flatMap((e) =>
              e.metadata.page_number === undefined ? [] : [e.metadata.page_number],
            ),
          );
          expect(pages.size).toBeLessThanOrEqual(1);
        }
      }),
      { numRuns: 60 },
    );
  });
});
