import type Anthropic from '@anthropic-ai/sdk';
import { requireSetting, resolveSetting } from '../credentials.js';
import { ProviderError } from '../errors.js';
import type { ProviderConnection } from '../http.js';
import { withRetries } from '../retry.js';
import { fromSdkError } from '../sdk-errors.js';
import type { ChatModel, ChatModelSettings, ChatRequest, ChatResponse } from './types.js';

/**
 * Anthropic Messages API (`POST {base}/v1/messages` with an `anthropic-version` header; the key goes
 * as the SDK sends it: `Authorization: Bearer` in @anthropic-ai/sdk 1.x), through the official SDK. Images go as base64 `image` blocks before the text. Structured output uses
 * a forced tool call: the tool's `input_schema` is the JSON schema, and its `input` is the answer.
 */
export function createAnthropicChatModel(settings: ChatModelSettings): ChatModel {
  const prefix = settings.optionPrefix;
  const apiKey = requireSetting(
    { provider: 'anthropic', option: `${prefix}_api_key`, description: 'an API key' },
    settings.apiKey,
    settings.env,
    ['ANTHROPIC_API_KEY'],
  );
  const baseURL =
    resolveSetting(settings.baseUrl, settings.env, ['ANTHROPIC_BASE_URL']) ?? 'https://api.anthropic.com';
  // The SDK is loaded on first use (see ../sdk-clients.ts); the key was checked above.
  let client: Promise<Anthropic> | undefined;
  const getClient = () => {
    client ??= import('@anthropic-ai/sdk').then(
      ({ default: AnthropicClient }) =>
        new AnthropicClient({
          apiKey,
          baseURL,
          timeout: settings.timeoutMs,
          maxRetries: 0,
          ...(settings.fetch ? { fetch: settings.fetch } : {}),
        }),
    );
    return client;
  };
  const connection: ProviderConnection = {
    provider: 'anthropic',
    timeoutMs: settings.timeoutMs,
    secrets: [apiKey],
  };

  return {
    provider: 'anthropic',
    model: settings.model,
    async complete(request: ChatRequest): Promise<ChatResponse> {
      const content: Anthropic.ContentBlockParam[] = [];
      if (request.image) {
        content.push({
          type: 'image',
          source: {
            type: 'base64',
            media_type: request.image.mimeType,
            data: Buffer.from(request.image.data).toString('base64'),
          },
        });
      }
      content.push({ type: 'text', text: request.user });
      const body: Anthropic.MessageCreateParamsNonStreaming = {
        model: settings.model,
        max_tokens: request.maxTokens,
        system: request.system,
        messages: [{ role: 'user', content }],
        ...(request.json
          ? {
              tools: [
                {
                  name: request.json.name,
                  description: request.json.description,
                  input_schema: request.json.schema as Anthropic.Tool.InputSchema,
                },
              ],
              tool_choice: { type: 'tool', name: request.json.name },
            }
          : {}),
      };
      const message = await withRetries(async () => {
        try {
          return await (await getClient()).messages.create(body);
        } catch (error) {
          throw fromSdkError(connection, error);
        }
      }, settings.retry);
      const truncated = message.stop_reason === 'max_tokens';
      if (request.json) {
        const toolUse = message.content.find((block) => block.type === 'tool_use');
        if (toolUse) return { text: JSON.stringify(toolUse.input), truncated };
      }
      const text = message.content
        .filter((block): block is Anthropic.TextBlock => block.type === 'text')
        .map((block) => block.text)
        .join('');
      if (!text && !request.json) {
        throw new ProviderError('anthropic', 'the answer has no text content', { secrets: [apiKey] });
      }
      return { text, truncated };
    },
  };
}
