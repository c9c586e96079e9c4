import {
  fakeVector,
  type ProviderServer,
  type ScriptedChat,
  startProviderServer,
  unauthorized,
} from './server.js';

/**
 * Vertex AI under `/v1/projects/{project}/locations/{location}/publishers/google/models/{model}`:
 * - `:predict` `{instances: [{content, task_type}], parameters}` → `{predictions: [{embeddings: {values, statistics}}]}`;
 * - `:generateContent` `{contents, systemInstruction, generationConfig}` → `{candidates: [{content: {parts: [{text}]}, finishReason}]}`.
 * Auth: `Authorization: Bearer <access token>`.
 */
export interface VertexServer extends ProviderServer {
  chatReplies: ScriptedChat[];
}

const MODEL_PATH =
  /^\/v1\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/google\/models\/([^/:]+):(predict|generateContent)$/;

export async function startVertexServer(options: {
  token: string;
  dimension?: number;
}): Promise<VertexServer> {
  const chatReplies: ScriptedChat[] = [];
  const server = await startProviderServer([
    {
      method: 'POST',
      path: MODEL_PATH,
      handle(request, match) {
        if (request.headers.authorization !== `Bearer ${options.token}`)
          return unauthorized('Request had invalid authentication credentials.');
        if (match[4] === 'predict') {
          const instances = request.body.instances as { content: string }[];
          const dimension = request.body.parameters?.outputDimensionality ?? options.dimension ?? 768;
          return {
            body: {
              predictions: instances.map((instance) => ({
                embeddings: {
                  values: fakeVector(instance.content, dimension),
                  statistics: { token_count: 1, truncated: false },
                },
              })),
            },
          };
        }
        const next = chatReplies.shift() ?? 'ok';
        if (typeof next === 'object' && 'reply' in next) return next.reply;
        const text = typeof next === 'string' ? next : next.content;
        const finishReason = typeof next === 'string' ? 'STOP' : (next.finishReason ?? 'STOP');
        return { body: { candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason }] } };
      },
    },
  ]);
  return Object.assign(server, { chatReplies });
}
