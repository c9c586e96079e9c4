import type { ProviderEnv } from '../../providers/credentials.js';
import type { EmbeddingOptions } from '../options.js';

/** What every backend is built from: validated options, the resolved model, and the environment. */
export interface BackendContext {
  options: EmbeddingOptions;
  /** embedding_model_name, or the provider's default. */
  model: string;
  env: ProviderEnv;
  /** Replaceable for tests of plain-fetch providers. */
  fetch?: typeof fetch | undefined;
}

/** Vectors in request order from `{data: [{embedding, index}]}` answers (OpenAI, Voyage, Mixedbread). */
export function vectorsByIndex(data: readonly { embedding: unknown; index?: number }[]): unknown[] {
  const vectors = new Array<unknown>(data.length);
  data.forEach((item, position) => {
    const index = typeof item.index === 'number' ? item.index : position;
    vectors[index] = item.embedding;
  });
  return vectors;
}
