import type { ElementDraft } from '../elements/element.js';
import { ServiceError } from '../errors.js';
import { htmlToDrafts } from '../formats/html/html-to-drafts.js';
import { createChatModel, parseChatProvider } from '../providers/chat/create.js';
import type { ChatModel } from '../providers/chat/types.js';
import type { ProviderEnv } from '../providers/credentials.js';
import { ProviderError } from '../providers/errors.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../providers/retry.js';
import { extractHtml } from './html-answer.js';
import { pickVlmOptions, type VlmConnectionOptions, type VlmOptionsInput, vlmOptionSet } from './options.js';
import { type PageImage, pageImageToPng } from './page-image.js';
import { VLM_SYSTEM_PROMPT, vlmUserPrompt } from './prompt.js';

/** The partition options that choose the model (SPEC 4.1), plus the connection options of ./options.ts. */
export type VlmOptions = VlmOptionsInput & {
  vlm_model_provider?: string | undefined;
  vlm_model?: string | undefined;
  /** Other options of a merged object (strategy, languages…) are ignored. */
  [other: string]: unknown;
};

export interface VlmRuntime {
  /** Where keys and addresses may come from when not given as options. Default: process.env. */
  env?: ProviderEnv;
  fetch?: typeof fetch;
  /** Backoff timing (tests make it instant); the retry count is vlm_max_retries. */
  retry?: Partial<Omit<RetryPolicy, 'maxRetries'>>;
}

export interface VlmClient {
  readonly provider: string;
  readonly model: string;
  /** One rendered page → element drafts (page_number set, detection_origin "vlm"). */
  pageToDrafts(image: PageImage, pageNumber: number): Promise<ElementDraft[]>;
}

/**
 * Build a client once per document (or process) and call it for every page. Throws `invalid_option`
 * when the provider is unknown or the model or a required setting is missing.
 */
export function createVlmClient(options: VlmOptions, runtime: VlmRuntime = {}): VlmClient {
  // Options may be the whole partition options object: read only the VLM ones.
  const { vlm_model_provider: providerName, vlm_model: model } = options;
  const connection: VlmConnectionOptions = vlmOptionSet.parse(pickVlmOptions(options));
  if (!providerName)
    throw missing(
      'vlm_model_provider',
      'strategy vlm needs vlm_model_provider (openai, anthropic, bedrock, vertexai...).',
    );
  if (!model) throw missing('vlm_model', 'strategy vlm needs vlm_model (e.g. gpt-4o, claude-sonnet-4-0).');
  const provider = parseChatProvider(providerName, 'vlm_model_provider');
  const chat: ChatModel = createChatModel({
    provider,
    model,
    apiKey: connection.vlm_api_key,
    baseUrl: connection.vlm_base_url,
    azure: {
      endpoint: connection.vlm_azure_endpoint,
      apiVersion: connection.vlm_azure_api_version,
      deployment: connection.vlm_azure_deployment,
    },
    aws: {
      region: connection.vlm_aws_region,
      accessKeyId: connection.vlm_aws_access_key_id,
      secretAccessKey: connection.vlm_aws_secret_access_key,
      sessionToken: connection.vlm_aws_session_token,
    },
    vertex: { project: connection.vlm_vertex_project, location: connection.vlm_vertex_location },
    timeoutMs: connection.vlm_timeout_ms,
    retry: { ...DEFAULT_RETRY_POLICY, ...runtime.retry, maxRetries: connection.vlm_max_retries },
    env: runtime.env ?? process.env,
    fetch: runtime.fetch,
    optionPrefix: 'vlm',
  });

  return {
    provider,
    model,
    async pageToDrafts(image, pageNumber) {
      const png = await pageImageToPng(image);
      const answer = await chat.complete({
        system: VLM_SYSTEM_PROMPT,
        user: vlmUserPrompt(pageNumber),
        image: { data: png, mimeType: 'image/png' },
        maxTokens: connection.vlm_max_tokens,
      });
      if (answer.truncated) {
        // A cut answer would silently lose the rest of the page: fail it instead (split_pdf_allow_failed
        // can then leave the page out and say so).
        throw new ProviderError(
          provider,
          `the HTML of page ${pageNumber} was cut off at vlm_max_tokens=${connection.vlm_max_tokens}; raise vlm_max_tokens`,
        );
      }
      return htmlToDrafts(extractHtml(answer.text), { pageNumber, useDeclaredLanguage: false }).map(
        (draft) => ({
          ...draft,
          metadata: { ...draft.metadata, page_number: pageNumber, detection_origin: 'vlm' },
        }),
      );
    },
  };
}

/** Convenience for one page; prefer createVlmClient for documents of many pages. */
export function vlmPageToDrafts(
  image: PageImage,
  pageNumber: number,
  options: VlmOptions,
  runtime: VlmRuntime = {},
): Promise<ElementDraft[]> {
  return createVlmClient(options, runtime).pageToDrafts(image, pageNumber);
}

function missing(field: string, message: string): ServiceError {
  return new ServiceError('invalid_option', message, { details: [{ field, message }] });
}
