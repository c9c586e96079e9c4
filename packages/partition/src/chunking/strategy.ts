import type { Element } from '../elements/element.js';
import type { ResolvedChunkingOptions } from './options.js';
import type { PreChunk } from './pre-chunk.js';

/**
 * The minimal embedding interface by_similarity needs. Any EmbeddingProvider of src/embed satisfies it;
 * a plain object with an `embed` function does too (tests, users' own models).
 * It must return one vector per text, in order, all of the same dimension.
 */
export interface TextEmbedder {
  embed(texts: string[]): Promise<number[][]>;
}

/** What a chunking run may need besides the options. */
export interface ChunkRuntime {
  /** Required by by_similarity. */
  embedder?: TextEmbedder | undefined;
  /** Random UUID chunk ids instead of the SHA-256 of the chunk text (the partition option of that name). */
  unique_element_ids?: boolean | undefined;
}

/** One chunking strategy: how elements are grouped. Assembling the groups is shared (assemble.ts). */
export interface ChunkingStrategy {
  /** False when chunks of different pages must stay apart, even for overlap_all (by_page). */
  readonly overlapAcrossPages: boolean;
  preChunk(
    elements: readonly Element[],
    options: ResolvedChunkingOptions,
    runtime: ChunkRuntime,
  ): PreChunk[] | Promise<PreChunk[]>;
}
