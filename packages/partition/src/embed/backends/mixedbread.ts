import { requireSetting, resolveSetting } from '../../providers/credentials.js';
import { joinUrl, type ProviderConnection, requestJson } from '../../providers/http.js';
import { knownDimension } from '../models.js';
import type { EmbeddingBackend } from '../provider.js';
import { type BackendContext, vectorsByIndex } from './context.js';

/**
 * Mixedbread (`POST {base}/embeddings`, bearer key): `{model, input, normalized: true,
 * encoding_format: "float", dimensions?}` → `{data: [{embedding, index}]}`. Plain fetch: one small call.
 */
export function createMixedbreadBackend(context: BackendContext): EmbeddingBackend {
  const { options, model } = context;
  const apiKey = requireSetting(
    { provider: 'mixedbread', option: 'embedding_api_key', description: 'an API key' },
    options.embedding_api_key,
    context.env,
    ['MXBAI_API_KEY', 'MIXEDBREAD_API_KEY'],
  );
  const base = resolveSetting(options.embedding_base_url, context.env, []) ?? 'https://api.mixedbread.com/v1';
  const connection: ProviderConnection = {
    provider: 'mixedbread',
    timeoutMs: options.embedding_timeout_ms,
    secrets: [apiKey],
    ...(context.fetch ? { fetch: context.fetch } : {}),
  };
  const dimensions = options.embedding_dimensions;
  return {
    provider: 'mixedbread',
    model,
    maxBatchSize: 256,
    knownDimension: dimensions === undefined ? knownDimension(model) : undefined,
    async embedBatch(texts) {
      const answer = await requestJson<{ data?: { embedding: unknown; index?: number }[] }>(connection, {
        url: joinUrl(base, 'embeddings'),
        headers: { authorization: `Bearer ${apiKey}` },
        body: {
          model,
          input: texts,
          normalized: true,
          encoding_format: 'float',
          ...(dimensions === undefined ? {} : { dimensions }),
        },
      });
      return vectorsByIndex(answer.data ?? []) as number[][];
    },
  };
}
