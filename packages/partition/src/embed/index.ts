export type { EmbeddingRuntime } from './create.js';
export { createEmbeddingProviderFromOptions } from './create.js';
export { embedElements, embedElementsWith } from './embed-elements.js';
export { DEFAULT_EMBEDDING_MODELS, KNOWN_DIMENSIONS, knownDimension } from './models.js';
export {
  EMBEDDING_PROVIDERS,
  type EmbeddingOptions,
  type EmbeddingOptionsInput,
  type EmbeddingProviderName,
  embeddingOptionSet,
  pickEmbeddingOptions,
} from './options.js';
export {
  type BatchingSettings,
  createEmbeddingProvider,
  type EmbeddingBackend,
  type EmbeddingProvider,
} from './provider.js';
