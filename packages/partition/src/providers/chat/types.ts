import type { ProviderEnv } from '../credentials.js';
import type { RetryPolicy } from '../retry.js';

/**
 * One chat/vision model behind a single small interface, used by the VLM strategy (image → HTML) and
 * by LLM entity extraction (text → JSON). Each provider family translates it to its own wire format.
 */
export interface ChatModel {
  readonly provider: string;
  readonly model: string;
  complete(request: ChatRequest): Promise<ChatResponse>;
}

export interface ChatRequest {
  /** Instructions (system prompt). */
  system: string;
  /** The user turn's text. */
  user: string;
  /** An image sent with the user turn (a rendered page). */
  image?: { data: Uint8Array; mimeType: 'image/png' | 'image/jpeg' };
  /**
   * Ask for JSON matching this JSON schema, using the provider's structured-output feature where it has
   * one (OpenAI json_schema, Anthropic and Bedrock forced tool use, Gemini JSON mode). The caller still
   * validates the answer: not every server honours the schema.
   */
  json?: { name: string; description: string; schema: Record<string, unknown> };
  maxTokens: number;
}

export interface ChatResponse {
  /** The answer's text; for a `json` request, the JSON text. */
  text: string;
  /** True when the model stopped because it ran out of tokens (the answer is cut). */
  truncated: boolean;
}

/** Provider values of `vlm_model_provider` and `entity_extraction_provider`. */
export const CHAT_PROVIDERS = [
  'openai',
  'azure-openai',
  'openai-compatible',
  'vllm',
  'ollama',
  'anthropic',
  'bedrock',
  'vertexai',
] as const;
export type ChatProvider = (typeof CHAT_PROVIDERS)[number];

/** Everything needed to build a ChatModel; assembled from an option set by its owner (vlm/, enrich/). */
export interface ChatModelSettings {
  provider: ChatProvider;
  model: string;
  apiKey?: string | undefined;
  baseUrl?: string | undefined;
  azure?: { endpoint?: string | undefined; apiVersion?: string | undefined; deployment?: string | undefined };
  aws?: {
    region?: string | undefined;
    accessKeyId?: string | undefined;
    secretAccessKey?: string | undefined;
    sessionToken?: string | undefined;
  };
  vertex?: { project?: string | undefined; location?: string | undefined };
  timeoutMs: number;
  retry: RetryPolicy;
  env: ProviderEnv;
  fetch?: typeof fetch | undefined;
  /** Prefix of the option names (`vlm`, `entity_extraction`), so errors name the option to set. */
  optionPrefix: string;
}
