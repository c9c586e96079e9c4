import { buildPreChunks, limitsOf } from './pre-chunk.js';
import type { ChunkingStrategy } from './strategy.js';

/**
 * basic: fill each chunk with consecutive elements up to the limits, whatever they are (titles and page
 * changes do not matter). Tables still stand alone and over-long elements are still split.
 */
export const basicStrategy: ChunkingStrategy = {
  overlapAcrossPages: true,
  preChunk(elements, options) {
    return buildPreChunks(elements, limitsOf(options));
  },
};
