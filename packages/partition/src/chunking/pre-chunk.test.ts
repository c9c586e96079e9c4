import { describe, expect, it } from 'vitest';
import { buildPreChunks } from './pre-chunk.js';
import { el, table } from './test-support/elements.js';

const limits = { softMax: 100, fillLimit: 100 };
const texts = (preChunks: ReturnType<typeof buildPreChunks>) =>
  preChunks.map((p) => (p.kind === 'text' ? p.texts : [`[table] ${p.table.text}`]));

describe('buildPreChunks', () => {
  it('fills a group with consecutive elements while the joined text fits', () => {
    const elements = [
      el('NarrativeText', 'a'.repeat(40)),
      el('NarrativeText', 'b'.repeat(40)),
      el('NarrativeText', 'c'.repeat(40)),
    ];
    // -- 40 + 2 + 40 = 82 fits; + 2 + 40 = 124 does not --
    expect(texts(buildPreChunks(elements, limits)).map((group) => group.length)).toEqual([2, 1]);
  });

  it('closes a group once it reaches the soft limit', () => {
    const elements = [
      el('NarrativeText', 'a'.repeat(30)),
      el('NarrativeText', 'b'.repeat(10)),
      el('NarrativeText', 'c'),
    ];
    const groups = texts(buildPreChunks(elements, { softMax: 30, fillLimit: 100 }));
    expect(groups).toEqual([['a'.repeat(30)], ['b'.repeat(10), 'c']]);
  });

  it('puts every table in a group of its own', () => {
    const elements = [el('NarrativeText', 'before'), table([['x', 'y']]), el('NarrativeText', 'after')];
    expect(texts(buildPreChunks(elements, limits))).toEqual([['before'], ['[table] x y'], ['after']]);
  });

  it('attaches elements without text to the group being built, or to the first group', () => {
    const pageBreak = el('PageBreak', '');
    const first = el('PageBreak', ' ');
    const groups = buildPreChunks(
      [first, el('NarrativeText', 'one'), pageBreak, el('NarrativeText', 'two')],
      limits,
    );
    expect(groups).toHaveLength(1);
    expect(groups[0]!.elements.map((e) => e.type)).toEqual([
      'PageBreak',
      'NarrativeText',
      'PageBreak',
      'NarrativeText',
    ]);
    expect(buildPreChunks([el('PageBreak', '')], limits)).toEqual([]);
  });

  it('normalises whitespace inside elements but keeps the lines of code', () => {
    const groups = buildPreChunks(
      [el('NarrativeText', '  A.\tPURPOSE \n of  it '), el('CodeSnippet', 'if x:  \n    y()\n')],
      limits,
    );
    expect(texts(groups)).toEqual([['A. PURPOSE of it', 'if x:\n    y()']]);
  });

  it('lets the strategy put a boundary before an element', () => {
    const elements = [el('NarrativeText', 'one'), el('Title', 'Two'), el('NarrativeText', 'three')];
    const groups = buildPreChunks(elements, limits, (element) => element.type === 'Title');
    expect(texts(groups)).toEqual([['one'], ['Two', 'three']]);
  });
});
