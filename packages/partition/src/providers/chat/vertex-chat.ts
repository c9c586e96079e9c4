import { ProviderError } from '../errors.js';
import { type ProviderConnection, requestJson } from '../http.js';
import { withRetries } from '../retry.js';
import { createVertexAccess } from '../vertex-auth.js';
import type { ChatModel, ChatModelSettings, ChatRequest, ChatResponse } from './types.js';

/**
 * Google Vertex AI Gemini (`POST {base}/v1/projects/{p}/locations/{l}/publishers/google/models/{m}:generateContent`,
 * bearer token). Plain fetch: the REST shape is small and Google's SDKs for it pull in far more than
 * they add here. Images go as `inlineData` parts; JSON answers use Gemini's JSON mode.
 */
export function createVertexChatModel(settings: ChatModelSettings): ChatModel {
  const prefix = settings.optionPrefix;
  const access = createVertexAccess({
    credential: settings.apiKey,
    project: settings.vertex?.project,
    location: settings.vertex?.location,
    baseUrl: settings.baseUrl,
    env: settings.env,
    optionNames: { project: `${prefix}_vertex_project`, credential: `${prefix}_api_key` },
  });
  const connection: ProviderConnection = {
    provider: 'vertexai',
    timeoutMs: settings.timeoutMs,
    secrets: access.secrets,
    ...(settings.fetch ? { fetch: settings.fetch } : {}),
  };

  return {
    provider: 'vertexai',
    model: settings.model,
    async complete(request: ChatRequest): Promise<ChatResponse> {
      const parts: Record<string, unknown>[] = [];
      if (request.image) {
        parts.push({
          inlineData: {
            mimeType: request.image.mimeType,
            data: Buffer.from(request.image.data).toString('base64'),
          },
        });
      }
      parts.push({ text: request.user });
      const body = {
        systemInstruction: { parts: [{ text: request.system }] },
        contents: [{ role: 'user', parts }],
        generationConfig: {
          temperature: 0,
          maxOutputTokens: request.maxTokens,
          ...(request.json ? { responseMimeType: 'application/json' } : {}),
        },
      };
      const answer = await withRetries(
        async () =>
          requestJson<GenerateContentResponse>(connection, {
            url: `${access.modelUrl(settings.model)}:generateContent`,
            headers: { authorization: await access.authorization() },
            body,
          }),
        settings.retry,
      );
      const candidate = answer.candidates?.[0];
      const text = (candidate?.content?.parts ?? []).map((part) => part.text ?? '').join('');
      if (!text) {
        const reason = candidate?.finishReason ?? answer.promptFeedback?.blockReason ?? 'no candidates';
        throw new ProviderError('vertexai', `the answer has no text (${reason})`, {
          secrets: access.secrets,
        });
      }
      return { text, truncated: candidate?.finishReason === 'MAX_TOKENS' };
    },
  };
}

interface GenerateContentResponse {
  candidates?: { content?: { parts?: { text?: string }[] }; finishReason?: string }[];
  promptFeedback?: { blockReason?: string };
}
