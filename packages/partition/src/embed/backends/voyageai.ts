import { requireSetting, resolveSetting } from '../../providers/credentials.js';
import { joinUrl, type ProviderConnection, requestJson } from '../../providers/http.js';
import { knownDimension } from '../models.js';
import type { EmbeddingBackend } from '../provider.js';
import { type BackendContext, vectorsByIndex } from './context.js';

/**
 * Voyage AI (`POST {base}/embeddings`, bearer key): `{input, model, input_type: "document",
 * output_dimension?}` → `{data: [{embedding, index}]}`. Plain fetch: the official `voyageai` package
 * wraps the same call and brings node-fetch 2 with it.
 */
export function createVoyageBackend(context: BackendContext): EmbeddingBackend {
  const { options, model } = context;
  const apiKey = requireSetting(
    { provider: 'voyageai', option: 'embedding_api_key', description: 'an API key' },
    options.embedding_api_key,
    context.env,
    ['VOYAGE_API_KEY'],
  );
  const base = resolveSetting(options.embedding_base_url, context.env, []) ?? 'https://api.voyageai.com/v1';
  const connection: ProviderConnection = {
    provider: 'voyageai',
    timeoutMs: options.embedding_timeout_ms,
    secrets: [apiKey],
    ...(context.fetch ? { fetch: context.fetch } : {}),
  };
  const dimensions = options.embedding_dimensions;
  return {
    provider: 'voyageai',
    model,
    maxBatchSize: 1000,
    knownDimension: dimensions === undefined ? knownDimension(model) : undefined,
    async embedBatch(texts) {
      const answer = await requestJson<{ data?: { embedding: unknown; index?: number }[] }>(connection, {
        url: joinUrl(base, 'embeddings'),
        headers: { authorization: `Bearer ${apiKey}` },
        body: {
          input: texts,
          model,
          input_type: 'document',
          ...(dimensions === undefined ? {} : { output_dimension: dimensions }),
        },
      });
      return vectorsByIndex(answer.data ?? []) as number[][];
    },
  };
}
