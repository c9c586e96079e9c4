import type OpenAI from 'openai';
import { ProviderError } from '../errors.js';
import type { ProviderConnection } from '../http.js';
import { withRetries } from '../retry.js';
import { createOpenAiClient } from '../sdk-clients.js';
import { fromSdkError } from '../sdk-errors.js';
import type { ChatModel, ChatModelSettings, ChatRequest, ChatResponse } from './types.js';

/**
 * OpenAI Chat Completions (`POST {base}/chat/completions`), through the official `openai` SDK. The same
 * wire format serves OpenAI, Azure OpenAI (deployment URLs, `api-key` header), vLLM, Ollama (/v1) and
 * any other OpenAI-compatible server. Images go as a `data:` URL in an `image_url` content part.
 */
export function createOpenAiChatModel(settings: ChatModelSettings): ChatModel {
  const prefix = settings.optionPrefix;
  const { client, apiKey } = createOpenAiClient({
    provider: settings.provider,
    apiKey: settings.apiKey,
    baseUrl: settings.baseUrl,
    azureEndpoint: settings.azure?.endpoint,
    azureApiVersion: settings.azure?.apiVersion,
    azureDeployment: settings.azure?.deployment ?? settings.model,
    optionNames: {
      apiKey: `${prefix}_api_key`,
      baseUrl: `${prefix}_base_url`,
      azureEndpoint: `${prefix}_azure_endpoint`,
    },
    timeoutMs: settings.timeoutMs,
    env: settings.env,
    fetch: settings.fetch,
  });
  const connection: ProviderConnection = {
    provider: settings.provider,
    timeoutMs: settings.timeoutMs,
    secrets: [apiKey],
  };
  // OpenAI's own API replaced max_tokens with max_completion_tokens (reasoning models refuse the old
  // name); self-hosted servers mostly know only max_tokens.
  const hostedByOpenAi = settings.provider === 'openai' || settings.provider === 'azure-openai';

  return {
    provider: settings.provider,
    model: settings.model,
    async complete(request: ChatRequest): Promise<ChatResponse> {
      const body = buildBody(settings.model, request, hostedByOpenAi);
      const completion = await withRetries(async () => {
        try {
          return await (await client()).chat.completions.create(body);
        } catch (error) {
          throw fromSdkError(connection, error);
        }
      }, settings.retry);
      const choice = completion.choices?.[0];
      const text = choice?.message?.content;
      if (typeof text !== 'string') {
        throw new ProviderError(settings.provider, 'the answer has no message content', {
          secrets: [apiKey],
        });
      }
      return { text, truncated: choice?.finish_reason === 'length' };
    },
  };
}

const REASONING_MODEL = /^(o\d|gpt-5)/i;

function buildBody(
  model: string,
  request: ChatRequest,
  hostedByOpenAi: boolean,
): OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming {
  const userContent: OpenAI.Chat.Completions.ChatCompletionContentPart[] = [
    { type: 'text', text: request.user },
  ];
  if (request.image) {
    const base64 = Buffer.from(request.image.data).toString('base64');
    userContent.push({
      type: 'image_url',
      image_url: { url: `data:${request.image.mimeType};base64,${base64}`, detail: 'high' },
    });
  }
  return {
    model,
    // Reasoning models (o1, o3, gpt-5…) refuse any temperature but the default.
    ...(REASONING_MODEL.test(model) ? {} : { temperature: 0 }),
    ...(hostedByOpenAi ? { max_completion_tokens: request.maxTokens } : { max_tokens: request.maxTokens }),
    messages: [
      { role: 'system', content: request.system },
      { role: 'user', content: userContent },
    ],
    ...(request.json
      ? {
          response_format: {
            type: 'json_schema',
            json_schema: {
              name: request.json.name,
              description: request.json.description,
              schema: request.json.schema,
              strict: true,
            },
          },
        }
      : {}),
  };
}
