export { chunk, chunkElements, chunkSync } from './chunk.js';
export {
  CHUNKING_STRATEGIES,
  type ChunkingOptions,
  type ChunkingOptionsInput,
  type ChunkingStrategyName,
  chunkingOptionSet,
  type ResolvedChunkingOptions,
  resolveChunkingOptions,
} from './options.js';
export type { ChunkRuntime, TextEmbedder } from './strategy.js';
