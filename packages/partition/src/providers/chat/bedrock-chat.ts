import type {
  ContentBlock,
  ConverseCommandInput,
  ConverseCommandOutput,
} from '@aws-sdk/client-bedrock-runtime';
import { ProviderError } from '../errors.js';
import type { ProviderConnection } from '../http.js';
import { withRetries } from '../retry.js';
import { createBedrockClient } from '../sdk-clients.js';
import { fromSdkError } from '../sdk-errors.js';
import type { ChatModel, ChatModelSettings, ChatRequest, ChatResponse } from './types.js';

/** The SDK's JSON document type, without importing its internal @smithy/types package. */
type JsonDocument = NonNullable<ConverseCommandOutput['additionalModelResponseFields']>;

/**
 * AWS Bedrock Converse API (`POST {endpoint}/model/{modelId}/converse`, SigV4-signed by the AWS SDK).
 * One request shape for every Bedrock chat model (Claude, Llama, Nova, Mistral...). Images go as
 * `image` blocks with raw bytes; structured output uses a forced tool call, as with Anthropic.
 */
export function createBedrockChatModel(settings: ChatModelSettings): ChatModel {
  const client = createBedrockClient({
    region: settings.aws?.region,
    accessKeyId: settings.aws?.accessKeyId,
    secretAccessKey: settings.aws?.secretAccessKey,
    sessionToken: settings.aws?.sessionToken,
    endpoint: settings.baseUrl,
    timeoutMs: settings.timeoutMs,
    env: settings.env,
  });
  const connection: ProviderConnection = {
    provider: 'bedrock',
    timeoutMs: settings.timeoutMs,
    secrets: [settings.aws?.secretAccessKey, settings.aws?.sessionToken],
  };

  return {
    provider: 'bedrock',
    model: settings.model,
    async complete(request: ChatRequest): Promise<ChatResponse> {
      const content: ContentBlock[] = [];
      if (request.image) {
        const format = request.image.mimeType === 'image/png' ? 'png' : 'jpeg';
        content.push({ image: { format, source: { bytes: request.image.data } } });
      }
      content.push({ text: request.user });
      const input: ConverseCommandInput = {
        modelId: settings.model,
        system: [{ text: request.system }],
        messages: [{ role: 'user', content }],
        inferenceConfig: { maxTokens: request.maxTokens, temperature: 0 },
        ...(request.json
          ? {
              toolConfig: {
                tools: [
                  {
                    toolSpec: {
                      name: request.json.name,
                      description: request.json.description,
                      inputSchema: { json: request.json.schema as JsonDocument },
                    },
                  },
                ],
                toolChoice: { tool: { name: request.json.name } },
              },
            }
          : {}),
      };
      const output: ConverseCommandOutput = await withRetries(async () => {
        try {
          const { ConverseCommand } = await import('@aws-sdk/client-bedrock-runtime');
          return await (await client()).send(new ConverseCommand(input));
        } catch (error) {
          throw fromSdkError(connection, error);
        }
      }, settings.retry);
      const blocks = output.output?.message?.content ?? [];
      const truncated = output.stopReason === 'max_tokens';
      if (request.json) {
        const toolUse = blocks.find((block) => block.toolUse)?.toolUse;
        if (toolUse) return { text: JSON.stringify(toolUse.input ?? null), truncated };
      }
      const text = blocks.map((block) => block.text ?? '').join('');
      if (!text && !request.json) {
        throw new ProviderError('bedrock', 'the answer has no text content', { secrets: connection.secrets });
      }
      return { text, truncated };
    },
  };
}
