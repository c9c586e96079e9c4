import { type ProviderServer, type ScriptedChat, startProviderServer } from './server.js';

/**
 * The Anthropic Messages API: `POST /v1/messages` with the key in `x-api-key` or `Authorization: Bearer`
 * (what @anthropic-ai/sdk 1.x sends) and an `anthropic-version` header →
 * `{type: "message", content: [...], stop_reason}`. When the request forces a tool (structured output),
 * the scripted content is parsed as JSON and returned as that tool's `input` (a `tool_use` block).
 */
export interface AnthropicServer extends ProviderServer {
  chatReplies: ScriptedChat[];
}

export async function startAnthropicServer(options: { apiKey: string }): Promise<AnthropicServer> {
  const chatReplies: ScriptedChat[] = [];
  const server = await startProviderServer([
    {
      method: 'POST',
      path: /^\/v1\/messages$/,
      handle(request) {
        const key = request.headers['x-api-key'] ?? request.headers.authorization?.replace(/^Bearer /, '');
        if (key !== options.apiKey) {
          return {
            status: 401,
            body: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } },
          };
        }
        if (!request.headers['anthropic-version']) {
          return {
            status: 400,
            body: {
              type: 'error',
              error: { type: 'invalid_request_error', message: 'anthropic-version header is required' },
            },
          };
        }
        const next = chatReplies.shift() ?? 'ok';
        if (typeof next === 'object' && 'reply' in next) return next.reply;
        const text = typeof next === 'string' ? next : next.content;
        const finish = typeof next === 'string' ? undefined : next.finishReason;
        const forcedTool =
          request.body?.tool_choice?.type === 'tool' ? (request.body.tool_choice.name as string) : undefined;
        const content = forcedTool
          ? [{ type: 'tool_use', id: 'toolu_test', name: forcedTool, input: safeJson(text) }]
          : [{ type: 'text', text }];
        return {
          body: {
            id: 'msg_test',
            type: 'message',
            role: 'assistant',
            model: request.body?.model,
            content,
            stop_reason: finish ?? (forcedTool ? 'tool_use' : 'end_turn'),
            stop_sequence: null,
            usage: { input_tokens: 1, output_tokens: 1 },
          },
        };
      },
    },
  ]);
  return Object.assign(server, { chatReplies });
}

/** Tool inputs are objects; a scripted non-JSON answer becomes a string field so tests can send junk. */
function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return { unparsable: text };
  }
}
