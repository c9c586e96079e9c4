import type { Element } from '../elements/element.js';
import { invalidOption } from '../errors.js';
import { assembleChunks } from './assemble.js';
import { basicStrategy } from './basic.js';
import { byPageStrategy } from './by-page.js';
import { bySimilarityStrategy } from './by-similarity.js';
import { byTitleStrategy } from './by-title.js';
import {
  type ChunkingOptionsInput,
  type ChunkingStrategyName,
  type ResolvedChunkingOptions,
  resolveChunkingOptions,
} from './options.js';
import type { PreChunk } from './pre-chunk.js';
import type { ChunkingStrategy, ChunkRuntime } from './strategy.js';

/** The strategies by name: adding one is one file and one line here. */
const STRATEGIES: Record<ChunkingStrategyName, ChunkingStrategy> = {
  basic: basicStrategy,
  by_title: byTitleStrategy,
  by_page: byPageStrategy,
  by_similarity: bySimilarityStrategy,
};

/**
 * Chunk partitioned elements (docs/chunking.md). Without `chunking_strategy` the elements come back
 * unchanged (a new array of the same elements): chunking is off by default.
 * The input is never modified. `runtime.embedder` is needed by by_similarity.
 */
export async function chunk(
  elements: readonly Element[],
  options: ChunkingOptionsInput,
  runtime: ChunkRuntime = {},
): Promise<Element[]> {
  const resolved = resolveChunkingOptions(options);
  if (!resolved) return [...elements];
  const strategy = STRATEGIES[resolved.strategy];
  return finish(await strategy.preChunk(elements, resolved, runtime), resolved, strategy, runtime);
}

/** Same as `chunk`, for the strategies that need no embeddings (all but by_similarity). */
export function chunkSync(
  elements: readonly Element[],
  options: ChunkingOptionsInput,
  runtime: ChunkRuntime = {},
): Element[] {
  const resolved = resolveChunkingOptions(options);
  if (!resolved) return [...elements];
  const strategy = STRATEGIES[resolved.strategy];
  const preChunks = strategy.preChunk(elements, resolved, runtime);
  if (preChunks instanceof Promise) {
    preChunks.catch(() => undefined);
    const message = `${resolved.strategy} computes embeddings: use the asynchronous chunk()`;
    throw invalidOption('chunking_strategy', message);
  }
  return finish(preChunks, resolved, strategy, runtime);
}

/** The name the reference library uses, for users who look for it. */
export const chunkElements = chunk;

function finish(
  preChunks: PreChunk[],
  options: ResolvedChunkingOptions,
  strategy: ChunkingStrategy,
  runtime: ChunkRuntime,
): Element[] {
  return assembleChunks(preChunks, {
    options,
    unique_element_ids: runtime.unique_element_ids ?? false,
    overlapAcrossPages: strategy.overlapAcrossPages,
  });
}
