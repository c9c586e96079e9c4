import { defineOptions, field, type OptionsInput, type OptionsOutput } from '../options/fields.js';
import { pickOptions } from '../providers/pick-options.js';

/** Values of `embedding_provider`. `mixedbread-ai` is the unstructured-ingest spelling of `mixedbread`. */
export const EMBEDDING_PROVIDERS = [
  'openai',
  'azure-openai',
  'bedrock',
  'vertexai',
  'voyageai',
  'mixedbread',
  'mixedbread-ai',
  'togetherai',
  'huggingface',
  'ollama',
  'openai-compatible',
  'local',
] as const;
export type EmbeddingProviderName = (typeof EMBEDDING_PROVIDERS)[number];

/**
 * Options of the embedding step: the same names in the library, `service-ingest` (kebab-case flags)
 * and the API. Names follow unstructured-ingest (`--embedding-provider`, `--embedding-api-key`,
 * `--embedding-model-name`, `--embedding-aws-*`, `--embedding-azure-*`); docs/embeddings.md lists
 * each provider's defaults, environment variables and wire format.
 */
export const embeddingOptionSet = defineOptions({
  embedding_provider: field.enum(EMBEDDING_PROVIDERS, {
    description: 'Embedding provider; when absent, no embeddings are generated.',
  }),
  embedding_model_name: field.string({
    description: 'Model name (or Azure deployment); each provider has a default (see docs/embeddings.md).',
    placeholder: '<model>',
  }),
  embedding_api_key: field.string({
    secret: true,
    description:
      'API key of the provider. For vertexai: a service-account key (JSON) or an access token. Provider environment variables are used when absent.',
    placeholder: '<key>',
  }),
  embedding_base_url: field.string({
    aliases: ['embedding_endpoint'],
    description:
      'Base URL of the provider API (self-hosted servers, proxies, Ollama, TEI, openai-compatible, a Bedrock VPC endpoint).',
    placeholder: '<url>',
  }),
  embedding_dimensions: field.integer({
    min: 1,
    description:
      'Requested vector length, for models that can shorten their output (OpenAI text-embedding-3, Titan v2, Vertex, Voyage, Mixedbread, Ollama). Also checked on every vector.',
  }),
  embedding_batch_size: field.integer({
    default: 32,
    min: 1,
    max: 2048,
    description: 'Texts per request (capped at each provider’s own limit).',
  }),
  embedding_max_concurrency: field.integer({
    default: 4,
    min: 1,
    max: 64,
    description: 'Requests in flight at once (the local provider always runs one batch at a time).',
  }),
  embedding_max_retries: field.integer({
    default: 4,
    min: 0,
    max: 20,
    description: 'Retries of a request that failed with 429, 5xx, a network error or a timeout.',
  }),
  embedding_timeout_ms: field.integer({
    default: 60_000,
    min: 100,
    description: 'Time limit of one request, in milliseconds.',
  }),
  embedding_aws_access_key_id: field.string({
    description: 'bedrock: AWS access key id (the AWS default credential chain is used when absent).',
  }),
  embedding_aws_secret_access_key: field.string({
    secret: true,
    description: 'bedrock: AWS secret access key.',
  }),
  embedding_aws_session_token: field.string({
    secret: true,
    description: 'bedrock: AWS session token of temporary credentials.',
  }),
  embedding_aws_region: field.string({
    default: 'us-west-2',
    description: 'bedrock: AWS region.',
  }),
  embedding_azure_endpoint: field.string({
    description:
      'azure-openai: resource endpoint, https://<resource>.openai.azure.com (or AZURE_OPENAI_ENDPOINT).',
    placeholder: '<url>',
  }),
  embedding_azure_api_version: field.string({
    description: 'azure-openai: API version (default 2024-10-21, or OPENAI_API_VERSION).',
  }),
  embedding_azure_deployment: field.string({
    description: 'azure-openai: deployment name; defaults to embedding_model_name.',
  }),
  embedding_vertex_project: field.string({
    description:
      'vertexai: Google Cloud project (or GOOGLE_CLOUD_PROJECT, or the project of the service-account key).',
  }),
  embedding_vertex_location: field.string({
    description: 'vertexai: region (default us-central1, or GOOGLE_CLOUD_LOCATION).',
  }),
  embedding_huggingface_api: field.enum(['inference', 'tei'] as const, {
    default: 'inference',
    description:
      'huggingface: the Inference API (feature-extraction pipeline) or a Text Embeddings Inference server (/embed).',
  }),
  embedding_model_path: field.string({
    description:
      'local: folder of an ONNX sentence-transformer (model.onnx or onnx/model.onnx, tokenizer.json); without it the bundled Universal Sentence Encoder lite is used.',
    placeholder: '<dir>',
  }),
});

/** The embedding options out of a merged options object (see providers/pick-options.ts). */
export function pickEmbeddingOptions(options: Record<string, unknown>): EmbeddingOptionsInput {
  return pickOptions<EmbeddingOptionsInput>(embeddingOptionSet, options);
}

export type EmbeddingOptionsInput = OptionsInput<typeof embeddingOptionSet.shape>;
export type EmbeddingOptions = OptionsOutput<typeof embeddingOptionSet.shape>;
