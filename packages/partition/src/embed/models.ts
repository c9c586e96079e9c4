import type { EmbeddingProviderName } from './options.js';

/**
 * Default model per provider, and the vector length of well-known models. The length lets
 * `dimension()` answer without a request (destinations need it to create collections before any
 * document is processed) and catches a provider that answers with vectors of another size.
 * A model missing here still works: its size is learned from the first vector.
 */
export const DEFAULT_EMBEDDING_MODELS: Record<
  Exclude<EmbeddingProviderName, 'mixedbread-ai'>,
  string | undefined
> = {
  openai: 'text-embedding-3-small',
  'azure-openai': 'text-embedding-3-small',
  bedrock: 'amazon.titan-embed-text-v2:0',
  vertexai: 'text-embedding-005',
  voyageai: 'voyage-3.5',
  mixedbread: 'mixedbread-ai/mxbai-embed-large-v1',
  togetherai: 'togethercomputer/m2-bert-80M-8k-retrieval',
  huggingface: 'sentence-transformers/all-MiniLM-L6-v2',
  ollama: 'nomic-embed-text',
  // Any server: the model must be named.
  'openai-compatible': undefined,
  local: 'universal-sentence-encoder-lite',
};

/** Output length of models as published by their providers (default sizes, before any shortening). */
export const KNOWN_DIMENSIONS: Readonly<Record<string, number>> = {
  // OpenAI (also on Azure)
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'text-embedding-ada-002': 1536,
  // Bedrock
  'amazon.titan-embed-text-v1': 1536,
  'amazon.titan-embed-text-v2:0': 1024,
  'cohere.embed-english-v3': 1024,
  'cohere.embed-multilingual-v3': 1024,
  // Vertex AI
  'text-embedding-005': 768,
  'text-embedding-004': 768,
  'text-multilingual-embedding-002': 768,
  'gemini-embedding-001': 3072,
  // Voyage AI
  'voyage-3.5': 1024,
  'voyage-3.5-lite': 1024,
  'voyage-3-large': 1024,
  'voyage-3': 1024,
  'voyage-3-lite': 512,
  'voyage-code-3': 1024,
  // Mixedbread
  'mixedbread-ai/mxbai-embed-large-v1': 1024,
  'mxbai-embed-large-v1': 1024,
  // Together AI
  'togethercomputer/m2-bert-80M-8k-retrieval': 768,
  'togethercomputer/m2-bert-80M-32k-retrieval': 768,
  'BAAI/bge-large-en-v1.5': 1024,
  'BAAI/bge-base-en-v1.5': 768,
  // Hugging Face / sentence-transformers
  'sentence-transformers/all-MiniLM-L6-v2': 384,
  'sentence-transformers/all-mpnet-base-v2': 768,
  'BAAI/bge-small-en-v1.5': 384,
  // Ollama
  'nomic-embed-text': 768,
  'mxbai-embed-large': 1024,
  'all-minilm': 384,
  // Bundled local model
  'universal-sentence-encoder-lite': 512,
};

/** Known length of a model; Ollama tags (`nomic-embed-text:latest`) match their base name. */
export function knownDimension(model: string): number | undefined {
  return KNOWN_DIMENSIONS[model] ?? KNOWN_DIMENSIONS[model.replace(/:latest$/, '')];
}
