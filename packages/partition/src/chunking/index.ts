export { chunk, chunkElements, chunkSync } from './chunk.js';
export {
  CHUNKING_STRATEGIES,
  type ChunkingOptions,
  type ChunkingOptionsInput,
  type ChunkingStrategyName,
  chunkingOptionSet,
  pickChunkingOptions,
  type ResolvedChunkingOptions,
  resolveChunkingOptions,
} from './options.js';
export type { ChunkRuntime, TextEmbedder } from './strategy.js';
