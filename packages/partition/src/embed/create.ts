import { ServiceError } from '../errors.js';
import type { ProviderEnv } from '../providers/credentials.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../providers/retry.js';
import { createBedrockBackend } from './backends/bedrock.js';
import type { BackendContext } from './backends/context.js';
import { createHuggingFaceBackend } from './backends/huggingface.js';
import { createOnnxFolderBackend } from './backends/local-onnx.js';
import { createUseLiteBackend, USE_LITE_MODEL } from './backends/local-use.js';
import { createMixedbreadBackend } from './backends/mixedbread.js';
import { createOllamaBackend } from './backends/ollama.js';
import { createOpenAiBackend } from './backends/openai.js';
import { createVertexBackend } from './backends/vertexai.js';
import { createVoyageBackend } from './backends/voyageai.js';
import { DEFAULT_EMBEDDING_MODELS } from './models.js';
import { type EmbeddingOptions, type EmbeddingOptionsInput, embeddingOptionSet } from './options.js';
import { createEmbeddingProvider, type EmbeddingBackend, type EmbeddingProvider } from './provider.js';

/** What the caller's environment supplies; the CLI passes process.env, a server may pass {}. */
export interface EmbeddingRuntime {
  /** Where provider keys and addresses may come from when not given as options. Default: process.env. */
  env?: ProviderEnv;
  /** Used by the plain-fetch providers (vertexai, voyageai, mixedbread, huggingface, ollama). */
  fetch?: typeof fetch;
  /** Backoff timing (tests make it instant); retry count comes from embedding_max_retries. */
  retry?: Partial<Omit<RetryPolicy, 'maxRetries'>>;
}

/**
 * Build the provider the options name. Validates the options; throws `invalid_option` when
 * `embedding_provider` is absent or a required setting (key, address, model) is missing.
 */
export function createEmbeddingProviderFromOptions(
  input: EmbeddingOptionsInput | EmbeddingOptions,
  runtime: EmbeddingRuntime = {},
): EmbeddingProvider {
  const options = embeddingOptionSet.parse(input);
  const providerName = options.embedding_provider;
  if (!providerName) {
    const message = 'embedding_provider is required to generate embeddings.';
    throw new ServiceError('invalid_option', message, {
      details: [{ field: 'embedding_provider', message }],
    });
  }
  const provider = providerName === 'mixedbread-ai' ? 'mixedbread' : providerName;
  const model = options.embedding_model_name ?? defaultModel(provider, options);
  const context: BackendContext = { options, model, env: runtime.env ?? process.env, fetch: runtime.fetch };
  return createEmbeddingProvider(createBackend(provider, context), {
    batchSize: options.embedding_batch_size,
    concurrency: options.embedding_max_concurrency,
    retry: { ...DEFAULT_RETRY_POLICY, ...runtime.retry, maxRetries: options.embedding_max_retries },
    requestedDimension: options.embedding_dimensions,
  });
}

function defaultModel(provider: keyof typeof DEFAULT_EMBEDDING_MODELS, options: EmbeddingOptions): string {
  if (provider === 'local' && options.embedding_model_path) return options.embedding_model_path;
  const model = DEFAULT_EMBEDDING_MODELS[provider];
  if (model) return model;
  const message = `${provider} has no default model: set embedding_model_name.`;
  throw new ServiceError('invalid_option', message, {
    details: [{ field: 'embedding_model_name', message }],
  });
}

function createBackend(
  provider: keyof typeof DEFAULT_EMBEDDING_MODELS,
  context: BackendContext,
): EmbeddingBackend {
  switch (provider) {
    case 'openai':
    case 'azure-openai':
    case 'togetherai':
    case 'openai-compatible':
      return createOpenAiBackend(provider, context);
    case 'bedrock':
      return createBedrockBackend(context);
    case 'vertexai':
      return createVertexBackend(context);
    case 'voyageai':
      return createVoyageBackend(context);
    case 'mixedbread':
      return createMixedbreadBackend(context);
    case 'huggingface':
      return createHuggingFaceBackend(context);
    case 'ollama':
      return createOllamaBackend(context);
    case 'local':
      return createLocalBackend(context);
  }
}

function createLocalBackend(context: BackendContext): EmbeddingBackend {
  const { options } = context;
  if (options.embedding_model_path) return createOnnxFolderBackend(options.embedding_model_path);
  if (context.model !== USE_LITE_MODEL) {
    const message = `The local provider bundles only ${USE_LITE_MODEL}; for "${context.model}" give the folder of its ONNX export in embedding_model_path.`;
    throw new ServiceError('invalid_option', message, {
      details: [{ field: 'embedding_model_name', message }],
    });
  }
  return createUseLiteBackend();
}
