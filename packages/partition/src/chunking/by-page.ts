import { buildPreChunks, changesPage, limitsOf } from './pre-chunk.js';
import type { ChunkingStrategy } from './strategy.js';

/**
 * by_page: like basic within a page, and a new chunk at every page change, so no chunk mixes pages.
 * Elements without a page_number (headers of some formats, page breaks) stay with the page before them.
 * overlap_all does not carry text across a page change either.
 */
export const byPageStrategy: ChunkingStrategy = {
  overlapAcrossPages: false,
  preChunk(elements, options) {
    return buildPreChunks(elements, limitsOf(options), (element, _index, current) =>
      changesPage(element, current),
    );
  },
};
