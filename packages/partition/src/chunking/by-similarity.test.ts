import { describe, expect, it } from 'vitest';
import { isServiceError } from '../errors.js';
import { cosine } from './by-similarity.js';
import { chunk, chunkSync } from './chunk.js';
import type { TextEmbedder } from './strategy.js';
import { el, table } from './test-support/elements.js';

/** A toy embedder: one dimension per topic word, so similarity is known exactly. */
const TOPICS = ['cats', 'rockets', 'taxes'];
const topicEmbedder: TextEmbedder & { calls: string[][] } = {
  calls: [],
  async embed(texts) {
    this.calls.push(texts);
    return texts.map((text) => TOPICS.map((topic) => (text.includes(topic) ? 1 : 0)));
  },
};

const doc = [
  el('NarrativeText', 'cats purr.'),
  el('NarrativeText', 'cats sleep.'),
  el('Title', 'More cats'),
  el('NarrativeText', 'rockets fly.'),
  el('NarrativeText', 'rockets and cats.'),
  el('NarrativeText', 'taxes are due.'),
];

describe('by_similarity', () => {
  it('groups consecutive elements similar to their chunk, ignoring titles', async () => {
    const chunks = await chunk(doc, { chunking_strategy: 'by_similarity' }, { embedder: topicEmbedder });
    // -- "rockets and cats" vs mean(rockets): cos = 0.707 >= 0.5, joins; taxes is orthogonal --
    expect(chunks.map((c) => c.text)).toEqual([
      'cats purr.\n\ncats sleep.\n\nMore cats',
      'rockets fly.\n\nrockets and cats.',
      'taxes are due.',
    ]);
  });

  it('a higher similarity_threshold splits more', async () => {
    const chunks = await chunk(
      doc,
      { chunking_strategy: 'by_similarity', similarity_threshold: 0.8 },
      { embedder: topicEmbedder },
    );
    expect(chunks.map((c) => c.text)).toEqual([
      'cats purr.\n\ncats sleep.\n\nMore cats',
      'rockets fly.',
      'rockets and cats.',
      'taxes are due.',
    ]);
  });

  it('still obeys the size limits and keeps tables apart; embeds each text once, tables not at all', async () => {
    topicEmbedder.calls = [];
    const elements = [
      el('NarrativeText', 'cats one'),
      table([['cats', 'table']]),
      el('NarrativeText', 'cats two'),
      el('NarrativeText', 'cats three'),
    ];
    const chunks = await chunk(
      elements,
      { chunking_strategy: 'by_similarity', max_characters: 20 },
      { embedder: topicEmbedder },
    );
    expect(chunks.map((c) => c.text)).toEqual(['cats one', 'cats table', 'cats two\n\ncats three']);
    expect(topicEmbedder.calls).toEqual([['cats one', 'cats two', 'cats three']]);
  });

  it('without an embedder gives a clear invalid_option error', async () => {
    const error = await chunk(doc, { chunking_strategy: 'by_similarity' }).catch((e: unknown) => e);
    expect(isServiceError(error) && error.code).toBe('invalid_option');
    expect((error as Error).message).toMatch(/by_similarity needs embeddings/);
    expect(() => chunkSync(doc, { chunking_strategy: 'by_similarity' }, { embedder: topicEmbedder })).toThrow(
      /asynchronous chunk\(\)/,
    );
  });

  it('reports a bad embedder answer as provider_error', async () => {
    const short: TextEmbedder = { embed: async (texts) => texts.slice(1).map(() => [1]) };
    const ragged: TextEmbedder = { embed: async (texts) => texts.map((_, i) => (i === 1 ? [1, 2] : [1])) };
    const failing: TextEmbedder = {
      embed: async () => {
        throw new Error('HTTP 503');
      },
    };
    for (const embedder of [short, ragged, failing]) {
      const error = await chunk(doc, { chunking_strategy: 'by_similarity' }, { embedder }).catch(
        (e: unknown) => e,
      );
      expect(isServiceError(error) && error.code).toBe('provider_error');
    }
  });

  it('cosine is 0 for a zero vector and 1 for parallel vectors', () => {
    expect(cosine([0, 0], [1, 1])).toBe(0);
    expect(cosine([2, 0], [5, 0])).toBeCloseTo(1);
  });
});
