import { describe, expect, it } from 'vitest';
import { chunkSync } from './chunk.js';
import { el, origOf, table } from './test-support/elements.js';

describe('basic', () => {
  it('combines consecutive elements of any type up to max_characters, ignoring titles and pages', () => {
    const elements = [
      el('Title', 'Intro', { page_number: 1 }),
      el('NarrativeText', 'First paragraph.', { page_number: 1 }),
      el('Title', 'Next', { page_number: 2 }),
      el('NarrativeText', 'Second paragraph.', { page_number: 2 }),
    ];
    const chunks = chunkSync(elements, { chunking_strategy: 'basic', max_characters: 100 });
    expect(chunks.map((c) => c.text)).toEqual(['Intro\n\nFirst paragraph.\n\nNext\n\nSecond paragraph.']);
    expect(chunks[0]!.type).toBe('CompositeElement');
    expect(chunks[0]!.metadata.page_number).toBe(1);
  });

  it('starts a new chunk after new_after_n_chars', () => {
    const elements = ['aaaa', 'bbbb', 'cccc', 'dddd'].map((text) => el('NarrativeText', text));
    const chunks = chunkSync(elements, {
      chunking_strategy: 'basic',
      max_characters: 100,
      new_after_n_chars: 9,
    });
    expect(chunks.map((c) => c.text)).toEqual(['aaaa\n\nbbbb', 'cccc\n\ndddd']);
  });

  it('new_after_n_chars 0 puts every element in a chunk of its own', () => {
    const elements = ['a', 'b', 'c'].map((text) => el('NarrativeText', text));
    const chunks = chunkSync(elements, { chunking_strategy: 'basic', new_after_n_chars: 0 });
    expect(chunks.map((c) => c.text)).toEqual(['a', 'b', 'c']);
  });

  it('splits an element longer than max_characters, with overlap and is_continuation', () => {
    const text = 'One two three four five. Six seven eight nine ten. Eleven twelve thirteen fourteen.';
    const chunks = chunkSync([el('NarrativeText', text)], {
      chunking_strategy: 'basic',
      max_characters: 40,
      overlap: 12,
    });
    expect(chunks.map((c) => c.text)).toEqual([
      'One two three four five.',
      'four five. Six seven eight nine ten.',
      'nine ten. Eleven twelve thirteen',
      'thirteen fourteen.',
    ]);
    expect(chunks.map((c) => c.metadata.is_continuation)).toEqual([undefined, true, true, true]);
    // -- each piece keeps the whole element it came from --
    for (const chunk of chunks) expect(origOf(chunk).map((e) => e.text)).toEqual([text]);
  });

  it('overlap without overlap_all is carried only between pieces of a split element', () => {
    const elements = [el('NarrativeText', 'alpha beta gamma'), el('NarrativeText', 'delta epsilon zeta')];
    const chunks = chunkSync(elements, { chunking_strategy: 'basic', max_characters: 20, overlap: 10 });
    expect(chunks.map((c) => c.text)).toEqual(['alpha beta gamma', 'delta epsilon zeta']);
  });

  it('overlap_all carries the end of each chunk into the next one, within max_characters', () => {
    const elements = [el('NarrativeText', 'alpha beta gamma'), el('NarrativeText', 'delta epsilon zeta')];
    const chunks = chunkSync(elements, {
      chunking_strategy: 'basic',
      max_characters: 34,
      overlap: 10,
      overlap_all: true,
    });
    expect(chunks.map((c) => c.text)).toEqual(['alpha beta gamma', 'beta gamma\n\ndelta epsilon zeta']);
    expect(chunks.every((c) => c.text.length <= 34)).toBe(true);
  });

  it('never combines a table with text', () => {
    const elements = [el('NarrativeText', 'before'), table([['a', 'b']]), el('NarrativeText', 'after')];
    const chunks = chunkSync(elements, { chunking_strategy: 'basic', max_characters: 500 });
    expect(chunks.map((c) => [c.type, c.text])).toEqual([
      ['CompositeElement', 'before'],
      ['Table', 'a b'],
      ['CompositeElement', 'after'],
    ]);
    expect(chunks[1]!.metadata.text_as_html).toBe(
      '<table><tbody><tr><td>a</td><td>b</td></tr></tbody></table>',
    );
  });

  it('keeps Header and Footer text like any text; a PageBreak adds no text and stays in orig_elements', () => {
    const elements = [
      el('Header', 'Handbook'),
      el('NarrativeText', 'Body.', { page_number: 1 }),
      el('PageBreak', ''),
      el('Footer', 'Copyright'),
    ];
    const [only] = chunkSync(elements, { chunking_strategy: 'basic' });
    expect(only!.text).toBe('Handbook\n\nBody.\n\nCopyright');
    expect(origOf(only!).map((e) => e.type)).toEqual(['Header', 'NarrativeText', 'PageBreak', 'Footer']);
  });
});
