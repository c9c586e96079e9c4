import { describe, expect, it } from 'vitest';
import { chunkSync } from './chunk.js';
import { el, table } from './test-support/elements.js';

const doc = [
  el('Title', 'Chapter one', { page_number: 1 }),
  el('NarrativeText', 'a'.repeat(60), { page_number: 1 }),
  el('Title', 'Chapter two', { page_number: 1 }),
  el('NarrativeText', 'b'.repeat(60), { page_number: 2 }),
  el('NarrativeText', 'c'.repeat(60), { page_number: 2 }),
];

describe('by_title', () => {
  it('starts a new chunk at every Title when sections are not combined', () => {
    const chunks = chunkSync(doc, {
      chunking_strategy: 'by_title',
      max_characters: 200,
      combine_text_under_n_chars: 0,
    });
    expect(chunks.map((c) => c.text.slice(0, 13))).toEqual(['Chapter one\n\n', 'Chapter two\n\n']);
  });

  it('combines a small section with the next while the first is under combine_text_under_n_chars', () => {
    // -- section one is 73 characters: under 100, so section two (136) joins it: 73 + 2 + 136 = 211 <= 300 --
    const combined = chunkSync(doc, {
      chunking_strategy: 'by_title',
      max_characters: 300,
      combine_text_under_n_chars: 100,
    });
    expect(combined).toHaveLength(1);
    // -- under 50 it is not --
    const separate = chunkSync(doc, {
      chunking_strategy: 'by_title',
      max_characters: 300,
      combine_text_under_n_chars: 50,
    });
    expect(separate).toHaveLength(2);
    // -- nor when the combination would exceed max_characters --
    const tooBig = chunkSync(doc, {
      chunking_strategy: 'by_title',
      max_characters: 200,
      combine_text_under_n_chars: 100,
    });
    expect(tooBig).toHaveLength(2);
  });

  it('combines by default (combine_text_under_n_chars = max_characters)', () => {
    const small = [el('Title', 'A'), el('NarrativeText', 'x'), el('Title', 'B'), el('NarrativeText', 'y')];
    expect(chunkSync(small, { chunking_strategy: 'by_title' }).map((c) => c.text)).toEqual([
      'A\n\nx\n\nB\n\ny',
    ]);
  });

  it('a section that fills up continues in a new chunk without its title', () => {
    const chunks = chunkSync(doc, {
      chunking_strategy: 'by_title',
      max_characters: 130,
      combine_text_under_n_chars: 0,
    });
    expect(chunks.map((c) => c.text)).toEqual([
      `Chapter one\n\n${'a'.repeat(60)}`,
      `Chapter two\n\n${'b'.repeat(60)}`,
      'c'.repeat(60),
    ]);
  });

  it('with multipage_sections false, a page change starts a chunk and sections of two pages are never combined', () => {
    const chunks = chunkSync(doc, {
      chunking_strategy: 'by_title',
      max_characters: 500,
      multipage_sections: false,
    });
    expect(chunks.map((c) => [c.metadata.page_number, c.text.length])).toEqual([
      [1, 86],
      [2, 122],
    ]);
    const together = chunkSync(doc, { chunking_strategy: 'by_title', max_characters: 500 });
    expect(together).toHaveLength(1);
  });

  it('does not combine a section across a table', () => {
    const elements = [el('Title', 'A'), table([['1', '2']]), el('Title', 'B')];
    expect(chunkSync(elements, { chunking_strategy: 'by_title' }).map((c) => c.type)).toEqual([
      'CompositeElement',
      'Table',
      'CompositeElement',
    ]);
  });
});
