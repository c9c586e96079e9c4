import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Element } from '../elements/element.js';
import { hashElementId } from '../elements/ids.js';
import { chunk, chunkSync } from './chunk.js';
import { CHUNKING_STRATEGIES, type ChunkingOptionsInput } from './options.js';
import type { TextEmbedder } from './strategy.js';
import { arbitraryElements, el, origOf, wordsOf } from './test-support/elements.js';

/** Deterministic vectors from letter counts: similar texts get similar vectors. */
const letterEmbedder: TextEmbedder = {
  embed: async (texts) =>
    texts.map((text) => {
      const vector = new Array<number>(8).fill(0);
      for (const char of text) vector[char.charCodeAt(0) % 8]! += 1;
      return vector;
    }),
};

const arbitraryOptions: fc.Arbitrary<ChunkingOptionsInput> = fc
  .record({
    chunking_strategy: fc.constantFrom(...CHUNKING_STRATEGIES),
    max_characters: fc.integer({ min: 5, max: 600 }),
    softRatio: fc.double({ min: 0, max: 1, noNaN: true }),
    overlapRatio: fc.double({ min: 0, max: 0.99, noNaN: true }),
    overlap_all: fc.boolean(),
    combineRatio: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
    multipage_sections: fc.boolean(),
    similarity_threshold: fc.double({ min: 0.01, max: 0.99, noNaN: true }),
  })
  .map(({ softRatio, overlapRatio, combineRatio, ...options }) => ({
    ...options,
    new_after_n_chars: Math.floor(options.max_characters * softRatio),
    overlap: Math.floor((options.max_characters - 1) * overlapRatio),
    ...(combineRatio === undefined
      ? {}
      : { combine_text_under_n_chars: Math.floor(options.max_characters * combineRatio) }),
  }));

function isTableType(element: Element): boolean {
  return element.type === 'Table' || element.type === 'TableChunk';
}

/** Original elements of all chunks in order, each split element counted once. */
function originalsOf(chunks: Element[]): Element[] {
  const result: Element[] = [];
  let previous = '';
  for (const c of chunks) {
    if (c.metadata.orig_elements === previous && c.metadata.is_continuation) continue;
    previous = c.metadata.orig_elements!;
    result.push(...origOf(c));
  }
  return result;
}

/** Is `needle` a subsequence of `haystack`? */
function isSubsequence(needle: string[], haystack: string[]): boolean {
  let at = 0;
  for (const word of haystack) if (at < needle.length && word === needle[at]) at++;
  return at === needle.length;
}

describe('chunk (all strategies)', () => {
  it('property: chunks never exceed max_characters, tables stay apart, nothing is lost, orig_elements are the input', async () => {
    await fc.assert(
      fc.asyncProperty(arbitraryElements, arbitraryOptions, async (elements, options) => {
        const before = structuredClone(elements);
        const chunks = await chunk(elements, options, { embedder: letterEmbedder });
        expect(elements).toEqual(before);
        const max = options.max_characters!;
        for (const c of chunks) {
          expect(c.text.length).toBeLessThanOrEqual(max);
          expect(c.text.trim()).not.toBe('');
          expect(c.element_id).toBe(hashElementId(c.text));
          const originals = origOf(c).filter((e) => e.text.trim() !== '');
          if (isTableType(c)) expect(originals.map((e) => e.type)).toEqual(['Table']);
          else expect(originals.some(isTableType)).toBe(false);
        }
        // -- a list made only of elements without text (page breaks) makes no chunk --
        const hasText = elements.some((e) => e.text.trim() !== '');
        expect(originalsOf(chunks)).toEqual(hasText ? elements : []);
        const inputWords = elements.flatMap((e) => wordsOf(e.text));
        const outputWords = chunks.flatMap((c) => wordsOf(c.text));
        // -- without overlap the chunks hold exactly the input's non-space characters, in order --
        if (options.overlap === 0) expect(outputWords.join('')).toEqual(inputWords.join(''));
        // -- with overlap, every input word appears in order (words fit when the limit passes 11) --
        if (max > 11) expect(isSubsequence(inputWords, outputWords)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('property: is_continuation marks exactly the second and later pieces of a split element', () => {
    fc.assert(
      fc.property(arbitraryElements, fc.integer({ min: 10, max: 200 }), (elements, max) => {
        const chunks = chunkSync(elements, { chunking_strategy: 'basic', max_characters: max });
        chunks.forEach((c, index) => {
          const continues =
            index > 0 && chunks[index - 1]!.metadata.orig_elements === c.metadata.orig_elements;
          expect(c.metadata.is_continuation ?? false).toBe(continues);
        });
      }),
      { numRuns: 100 },
    );
  });

  it('returns the elements unchanged when no strategy is given', async () => {
    const elements = [el('Title', 'A'), el('NarrativeText', 'b')];
    const result = await chunk(elements, {});
    expect(result).toEqual(elements);
    expect(result).not.toBe(elements);
  });

  it('gives random UUIDs with unique_element_ids, else the SHA-256 of the chunk text', () => {
    const elements = [el('NarrativeText', 'same'), el('Title', 'x'), el('NarrativeText', 'same')];
    const hashed = chunkSync(elements, { chunking_strategy: 'by_title', combine_text_under_n_chars: 0 });
    expect(hashed.map((c) => c.element_id)).toEqual(hashed.map((c) => hashElementId(c.text)));
    const unique = chunkSync(
      elements,
      { chunking_strategy: 'by_title', combine_text_under_n_chars: 0 },
      { unique_element_ids: true },
    );
    expect(unique.every((c) => /^[0-9a-f-]{36}$/.test(c.element_id))).toBe(true);
    expect(new Set(unique.map((c) => c.element_id)).size).toBe(unique.length);
  });

  it('omits orig_elements when include_orig_elements is false', () => {
    const chunks = chunkSync([el('NarrativeText', 'x')], {
      chunking_strategy: 'basic',
      include_orig_elements: false,
    });
    expect(chunks[0]!.metadata.orig_elements).toBeUndefined();
  });

  it('an empty list, or one of elements without text, gives no chunks', () => {
    expect(chunkSync([], { chunking_strategy: 'basic' })).toEqual([]);
    expect(chunkSync([el('PageBreak', '')], { chunking_strategy: 'by_title' })).toEqual([]);
  });
});
