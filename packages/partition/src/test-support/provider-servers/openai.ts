import {
  fakeVector,
  type ProviderServer,
  type RecordedRequest,
  type RouteReply,
  type ScriptedChat,
  startProviderServer,
  unauthorized,
} from './server.js';

/**
 * The OpenAI wire format, as OpenAI, Azure OpenAI, Together AI, vLLM and Ollama's /v1 speak it:
 * - `POST …/embeddings` `{model, input, encoding_format?, dimensions?}` → `{object: "list", data: [{embedding, index}]}`
 *   (base64 little-endian float32 when encoding_format is base64, as OpenAI does);
 * - `POST …/chat/completions` → `{choices: [{message: {content}, finish_reason}]}` with scripted contents.
 * Auth: `Authorization: Bearer <key>`, or Azure's `api-key` header on `/openai/deployments/…` paths.
 */
export interface OpenAiServerOptions {
  apiKey?: string;
  /** Vector length when the request names no `dimensions`. */
  dimension?: number;
}

export interface OpenAiServer extends ProviderServer {
  /** Answers to the next chat requests, consumed in order; when empty the answer is "ok". */
  chatReplies: ScriptedChat[];
}

/** Sizes of models the tests name, so the fake answers like the real service. */
const MODEL_SIZES: Record<string, number> = {
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'togethercomputer/m2-bert-80M-8k-retrieval': 768,
};

export async function startOpenAiServer(options: OpenAiServerOptions = {}): Promise<OpenAiServer> {
  const chatReplies: ScriptedChat[] = [];
  const checkKey = (request: RecordedRequest): RouteReply | undefined => {
    if (options.apiKey === undefined) return undefined;
    const azure = request.path.startsWith('/openai/');
    const sent = azure ? request.headers['api-key'] : request.headers.authorization?.replace(/^Bearer /, '');
    if (sent === options.apiKey) return undefined;
    // Like OpenAI, echo a masked form of the key that was sent.
    const masked = sent ? `${sent.slice(0, 3)}*****${sent.slice(-4)}` : 'none';
    return unauthorized(`Incorrect API key provided: ${masked}. You can find your API key in your account.`);
  };
  const server = await startProviderServer([
    {
      method: 'POST',
      path: /\/embeddings$/,
      handle(request) {
        const denied = checkKey(request);
        if (denied) return denied;
        const body = request.body as {
          input: string | string[];
          model: string;
          dimensions?: number;
          encoding_format?: string;
        };
        const inputs = typeof body.input === 'string' ? [body.input] : body.input;
        const dimension = body.dimensions ?? options.dimension ?? MODEL_SIZES[body.model] ?? 1536;
        return {
          body: {
            object: 'list',
            model: body.model,
            data: inputs.map((text, index) => {
              const vector = fakeVector(text, dimension);
              const embedding =
                body.encoding_format === 'base64'
                  ? Buffer.from(new Float32Array(vector).buffer).toString('base64')
                  : vector;
              return { object: 'embedding', index, embedding };
            }),
            usage: { prompt_tokens: inputs.length, total_tokens: inputs.length },
          },
        };
      },
    },
    {
      method: 'POST',
      path: /\/chat\/completions$/,
      handle(request) {
        const denied = checkKey(request);
        if (denied) return denied;
        const next = chatReplies.shift() ?? 'ok';
        if (typeof next === 'object' && 'reply' in next) return next.reply;
        const content = typeof next === 'string' ? next : next.content;
        const finishReason = typeof next === 'string' ? 'stop' : (next.finishReason ?? 'stop');
        return {
          body: {
            id: 'chatcmpl-test',
            object: 'chat.completion',
            created: 0,
            model: request.body?.model,
            choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: finishReason }],
            usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
          },
        };
      },
    },
  ]);
  return Object.assign(server, { chatReplies });
}
