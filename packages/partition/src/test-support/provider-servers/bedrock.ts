import {
  fakeVector,
  type ProviderServer,
  type RecordedRequest,
  type ScriptedChat,
  startProviderServer,
} from './server.js';

/**
 * AWS Bedrock runtime:
 * - `POST /model/{modelId}/invoke`: Titan `{inputText, dimensions?, normalize?}` → `{embedding, inputTextTokenCount}`,
 *   Cohere `{texts, input_type}` → `{embeddings, id, texts}`;
 * - `POST /model/{modelId}/converse` → `{output: {message: {content}}, stopReason, usage}`; a forced tool
 *   (structured output) answers with a `toolUse` block whose input is the scripted JSON.
 * Requests must be SigV4-signed for the `bedrock` service with the expected access key id.
 */
export interface BedrockServer extends ProviderServer {
  chatReplies: ScriptedChat[];
}

export async function startBedrockServer(options: {
  accessKeyId: string;
  dimension?: number;
}): Promise<BedrockServer> {
  const chatReplies: ScriptedChat[] = [];
  const signed = (request: RecordedRequest) => {
    const auth = request.headers.authorization ?? '';
    return (
      auth.startsWith(`AWS4-HMAC-SHA256 Credential=${options.accessKeyId}/`) &&
      auth.includes('/bedrock/aws4_request')
    );
  };
  const denied = {
    status: 403,
    headers: { 'x-amzn-errortype': 'UnrecognizedClientException' },
    body: { message: 'The security token included in the request is invalid.' },
  };
  const server = await startProviderServer(
    [
      {
        method: 'POST',
        path: /^\/model\/([^/]+)\/invoke$/,
        handle(request, match) {
          if (!signed(request)) return denied;
          const modelId = match[1]!;
          if (modelId.startsWith('cohere.')) {
            const texts = request.body.texts as string[];
            return {
              body: {
                id: 'test',
                texts,
                embeddings: texts.map((text) => fakeVector(text, options.dimension ?? 1024)),
                response_type: 'embeddings_floats',
              },
            };
          }
          const dimension =
            request.body.dimensions ?? options.dimension ?? (modelId.includes('v2') ? 1024 : 1536);
          return {
            body: { embedding: fakeVector(request.body.inputText, dimension), inputTextTokenCount: 1 },
          };
        },
      },
      {
        method: 'POST',
        path: /^\/model\/([^/]+)\/converse$/,
        handle(request) {
          if (!signed(request)) return denied;
          const next = chatReplies.shift() ?? 'ok';
          if (typeof next === 'object' && 'reply' in next) return next.reply;
          const text = typeof next === 'string' ? next : next.content;
          const forced = request.body?.toolConfig?.toolChoice?.tool?.name as string | undefined;
          let content: unknown[];
          if (forced) {
            let input: unknown;
            try {
              input = JSON.parse(text);
            } catch {
              input = { unparsable: text };
            }
            content = [{ toolUse: { toolUseId: 'tooluse_test', name: forced, input } }];
          } else {
            content = [{ text }];
          }
          const stopReason =
            typeof next === 'string' ? (forced ? 'tool_use' : 'end_turn') : (next.finishReason ?? 'end_turn');
          return {
            body: {
              output: { message: { role: 'assistant', content } },
              stopReason,
              usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
              metrics: { latencyMs: 1 },
            },
          };
        },
      },
    ],
    { http2: true },
  );
  return Object.assign(server, { chatReplies });
}
