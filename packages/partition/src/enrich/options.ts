import { defineOptions, field, type OptionsInput, type OptionsOutput } from '../options/fields.js';
import { CHAT_PROVIDERS } from '../providers/chat/types.js';
import { pickOptions } from '../providers/pick-options.js';

export const ENTITY_EXTRACTION_ENGINES = ['local', 'llm'] as const;

/**
 * Options of entity extraction (the enrichment step that fills metadata.entities). The same names in the
 * library, `service-ingest` (kebab-case flags) and the API. docs/enrichment.md describes both engines,
 * the entity types, the LLM prompt and each provider's wire format.
 */
export const entityExtractionOptionSet = defineOptions({
  entity_extraction: field.enum(ENTITY_EXTRACTION_ENGINES, {
    description:
      'Extract entities and relationships into metadata.entities: local (on this machine, no network) or llm (a chat model). Off when absent.',
  }),
  entity_extraction_provider: field.enum(CHAT_PROVIDERS, {
    default: 'openai',
    description:
      'llm: provider of the chat model (openai, azure-openai, anthropic, openai-compatible, vllm, ollama, bedrock, vertexai).',
  }),
  entity_extraction_model: field.string({
    description:
      'llm: model name (or Azure deployment), e.g. gpt-4o-mini or claude-3-5-haiku-latest. Required with llm.',
    placeholder: '<model>',
  }),
  entity_extraction_api_key: field.string({
    secret: true,
    description:
      "llm: API key; the provider's environment variable is used when absent (OPENAI_API_KEY, ANTHROPIC_API_KEY...).",
    placeholder: '<key>',
  }),
  entity_extraction_base_url: field.string({
    description: 'llm: base URL of the provider API (self-hosted and OpenAI-compatible servers, proxies).',
    placeholder: '<url>',
  }),
  entity_extraction_max_retries: field.integer({
    default: 2,
    min: 0,
    max: 10,
    description:
      'llm: new requests when the answer is not valid JSON of the expected shape; after that the element fails with provider_error.',
  }),
  entity_extraction_max_concurrency: field.integer({
    default: 4,
    min: 1,
    max: 64,
    description: 'llm: elements sent at once.',
  }),
  entity_extraction_timeout_ms: field.integer({
    default: 60_000,
    min: 100,
    description: 'llm: time limit of one request, in milliseconds.',
  }),
  entity_extraction_aws_access_key_id: field.string({ description: 'llm with bedrock: AWS access key id.' }),
  entity_extraction_aws_secret_access_key: field.string({
    secret: true,
    description: 'llm with bedrock: AWS secret access key.',
  }),
  entity_extraction_aws_region: field.string({
    description: 'llm with bedrock: AWS region (default us-west-2).',
  }),
  entity_extraction_azure_endpoint: field.string({
    description: 'llm with azure-openai: resource endpoint.',
  }),
  entity_extraction_azure_api_version: field.string({ description: 'llm with azure-openai: API version.' }),
  entity_extraction_vertex_project: field.string({ description: 'llm with vertexai: Google Cloud project.' }),
  entity_extraction_vertex_location: field.string({ description: 'llm with vertexai: region.' }),
});

/** The entity-extraction options out of a merged options object (see providers/pick-options.ts). */
export function pickEntityExtractionOptions(options: Record<string, unknown>): EntityExtractionOptionsInput {
  return pickOptions<EntityExtractionOptionsInput>(entityExtractionOptionSet, options);
}

export type EntityExtractionOptionsInput = OptionsInput<typeof entityExtractionOptionSet.shape>;
export type EntityExtractionOptions = OptionsOutput<typeof entityExtractionOptionSet.shape>;
