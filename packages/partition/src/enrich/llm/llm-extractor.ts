import { ServiceError } from '../../errors.js';
import { createChatModel } from '../../providers/chat/create.js';
import type { ChatModel } from '../../providers/chat/types.js';
import type { ProviderEnv } from '../../providers/credentials.js';
import { ProviderError } from '../../providers/errors.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../../providers/retry.js';
import type { EntityExtractionOptions } from '../options.js';
import type { Entities, EntityExtractor } from '../types.js';
import { answerJsonSchema, SYSTEM_PROMPT, userPrompt } from './prompt.js';
import { validateLlmAnswer } from './validate.js';

export interface LlmExtractorRuntime {
  env: ProviderEnv;
  fetch?: typeof fetch | undefined;
  /** Backoff timing of HTTP retries (429/5xx); tests make it instant. */
  retry?: Partial<RetryPolicy> | undefined;
}

/** Longest answer we allow: entity lists of a long passage fit easily. */
const MAX_ANSWER_TOKENS = 4_096;

/**
 * The LLM engine: one chat request per element, asking for JSON of the shape in ./prompt.ts
 * (structured output where the provider has it). An answer that fails validation is not stored:
 * the request is sent again with the reason appended, up to entity_extraction_max_retries times,
 * and then the element fails with a provider_error that says why.
 */
export function createLlmEntityExtractor(
  options: EntityExtractionOptions,
  runtime: LlmExtractorRuntime,
): EntityExtractor {
  const model = options.entity_extraction_model;
  if (!model) {
    const message =
      'entity_extraction=llm needs entity_extraction_model (e.g. gpt-4o-mini, claude-3-5-haiku-latest).';
    throw new ServiceError('invalid_option', message, {
      details: [{ field: 'entity_extraction_model', message }],
    });
  }
  const chat: ChatModel = createChatModel({
    provider: options.entity_extraction_provider,
    model,
    apiKey: options.entity_extraction_api_key,
    baseUrl: options.entity_extraction_base_url,
    azure: {
      endpoint: options.entity_extraction_azure_endpoint,
      apiVersion: options.entity_extraction_azure_api_version,
    },
    aws: {
      region: options.entity_extraction_aws_region,
      accessKeyId: options.entity_extraction_aws_access_key_id,
      secretAccessKey: options.entity_extraction_aws_secret_access_key,
    },
    vertex: {
      project: options.entity_extraction_vertex_project,
      location: options.entity_extraction_vertex_location,
    },
    timeoutMs: options.entity_extraction_timeout_ms,
    retry: { ...DEFAULT_RETRY_POLICY, ...runtime.retry },
    env: runtime.env,
    fetch: runtime.fetch,
    optionPrefix: 'entity_extraction',
  });
  const schema = answerJsonSchema();
  const attempts = options.entity_extraction_max_retries + 1;

  return {
    name: `llm:${chat.provider}`,
    async extract(text: string): Promise<Entities> {
      let reason: string | undefined;
      for (let attempt = 1; attempt <= attempts; attempt++) {
        const answer = await chat.complete({
          system: SYSTEM_PROMPT,
          user: userPrompt(text, reason),
          json: { name: 'entities', description: 'Entities and relationships found in the passage.', schema },
          maxTokens: MAX_ANSWER_TOKENS,
        });
        const checked = answer.truncated
          ? ({ ok: false, reason: 'the answer was cut off (too long).' } as const)
          : validateLlmAnswer(answer.text);
        if (checked.ok) return checked.entities;
        reason = checked.reason;
      }
      throw new ProviderError(
        chat.provider,
        `entity extraction with model ${chat.model} gave no valid answer in ${attempts} attempts; last problem: ${reason}`,
      );
    },
  };
}
