import { defineOptions, field, type OptionsInput, type OptionsOutput } from '../options/fields.js';
import { pickOptions } from '../providers/pick-options.js';

/**
 * Connection options of the VLM strategy. `vlm_model_provider` and `vlm_model` themselves belong to the
 * partition options (options/partition-options.ts, SPEC 4.1); these say how to reach the model.
 * Same names in the library, the CLI (kebab-case) and the API; docs/vlm.md describes each provider.
 */
export const vlmOptionSet = defineOptions({
  vlm_api_key: field.string({
    secret: true,
    description:
      "Key of the VLM provider (for vertexai: a service-account key as JSON, or an access token). The provider's environment variable is used when absent.",
    placeholder: '<key>',
  }),
  vlm_base_url: field.string({
    description:
      'Base URL of the VLM API: OpenAI-compatible servers (vLLM http://host:8000/v1, Ollama http://host:11434/v1), proxies, a Bedrock endpoint.',
    placeholder: '<url>',
  }),
  vlm_max_tokens: field.integer({
    default: 8_192,
    min: 256,
    max: 65_536,
    description: 'Longest answer (HTML of one page) the model may write; a page cut off at this limit fails.',
  }),
  vlm_timeout_ms: field.integer({
    default: 180_000,
    min: 1_000,
    description: 'Time limit of one page request, in milliseconds.',
  }),
  vlm_max_retries: field.integer({
    default: 4,
    min: 0,
    max: 20,
    description: 'Retries of a page request that failed with 429, 5xx, a network error or a timeout.',
  }),
  vlm_aws_access_key_id: field.string({
    description: 'bedrock: AWS access key id (default chain when absent).',
  }),
  vlm_aws_secret_access_key: field.string({ secret: true, description: 'bedrock: AWS secret access key.' }),
  vlm_aws_session_token: field.string({ secret: true, description: 'bedrock: AWS session token.' }),
  vlm_aws_region: field.string({ description: 'bedrock: AWS region (default AWS_REGION, else us-west-2).' }),
  vlm_azure_endpoint: field.string({
    description:
      'azure-openai: resource endpoint, https://<resource>.openai.azure.com (or AZURE_OPENAI_ENDPOINT).',
  }),
  vlm_azure_api_version: field.string({ description: 'azure-openai: API version (default 2024-10-21).' }),
  vlm_azure_deployment: field.string({
    description: 'azure-openai: deployment name; defaults to vlm_model.',
  }),
  vlm_vertex_project: field.string({
    description: 'vertexai: Google Cloud project (or GOOGLE_CLOUD_PROJECT).',
  }),
  vlm_vertex_location: field.string({ description: 'vertexai: region (default us-central1).' }),
});

/** The VLM connection options out of a merged options object (see providers/pick-options.ts). */
export function pickVlmOptions(options: Record<string, unknown>): VlmOptionsInput {
  return pickOptions<VlmOptionsInput>(vlmOptionSet, options);
}

export type VlmOptionsInput = OptionsInput<typeof vlmOptionSet.shape>;
export type VlmConnectionOptions = OptionsOutput<typeof vlmOptionSet.shape>;
