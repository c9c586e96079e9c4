import type { Element } from '../elements/element.js';
import { invalidOption, ServiceError, toServiceError } from '../errors.js';
import { chunkTextOf } from './element-text.js';
import { buildPreChunks, isTable, limitsOf, type TextPreChunk } from './pre-chunk.js';
import type { ChunkingStrategy, TextEmbedder } from './strategy.js';

/**
 * by_similarity: consecutive elements stay together while they are about the same thing. Every element
 * with text is embedded (one `embed` call for the whole list; providers batch it themselves). An element
 * joins the chunk being built when the cosine similarity between its vector and the mean of the chunk's
 * vectors is at least similarity_threshold, and the size limits allow it. Comparing with the mean rather
 * than with the previous element keeps one odd sentence from splitting a topic, and a slow drift from
 * gluing unrelated paragraphs together. Titles and pages play no part; tables still stand alone.
 */
export const bySimilarityStrategy: ChunkingStrategy = {
  overlapAcrossPages: true,
  async preChunk(elements, options, runtime) {
    if (!runtime.embedder) {
      const message =
        'by_similarity needs embeddings: pass an embedder (any embedding provider, or { embed(texts) }) to chunk()';
      throw invalidOption('chunking_strategy', message);
    }
    const vectors = await embedElements(elements, runtime.embedder);
    const means = new WeakMap<TextPreChunk, { sum: Float64Array; count: number }>();
    return buildPreChunks(elements, limitsOf(options), (element, _index, current) => {
      const vector = vectors.get(element);
      if (!vector) return false;
      let mean = means.get(current);
      if (!mean) {
        mean = { sum: new Float64Array(vector.length), count: 0 };
        means.set(current, mean);
      }
      // -- bring the running sum up to date with the elements that joined since the last call --
      for (; mean.count < current.textElements.length; mean.count++) {
        const member = vectors.get(current.textElements[mean.count]!);
        if (member) for (let i = 0; i < member.length; i++) mean.sum[i]! += member[i]!;
      }
      return cosine(vector, mean.sum) < options.similarityThreshold;
    });
  },
};

/** One vector per element with text (tables excluded), checked for shape. */
async function embedElements(
  elements: readonly Element[],
  embedder: TextEmbedder,
): Promise<Map<Element, Float64Array>> {
  const textual = elements.filter((element) => !isTable(element) && chunkTextOf(element) !== '');
  const vectors = new Map<Element, Float64Array>();
  if (textual.length === 0) return vectors;
  let result: unknown;
  try {
    result = await embedder.embed(textual.map(chunkTextOf));
  } catch (error) {
    throw toServiceError(error, 'provider_error');
  }
  if (!Array.isArray(result) || result.length !== textual.length) {
    const got = Array.isArray(result) ? `${result.length} vectors` : typeof result;
    throw new ServiceError('provider_error', `Embedder returned ${got} for ${textual.length} texts`);
  }
  const dimension = Array.isArray(result[0]) ? result[0].length : 0;
  result.forEach((vector: unknown, index) => {
    const valid =
      Array.isArray(vector) &&
      vector.length === dimension &&
      dimension > 0 &&
      vector.every((value) => typeof value === 'number' && Number.isFinite(value));
    if (!valid) {
      throw new ServiceError(
        'provider_error',
        `Embedder returned an invalid vector at index ${index} (expected ${dimension} finite numbers)`,
      );
    }
    vectors.set(textual[index]!, Float64Array.from(vector as number[]));
  });
  return vectors;
}

/** Cosine similarity; 0 when either vector is all zeros. */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    dot += x * y;
    normA += x * x;
    normB += y * y;
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}
