import { requireSetting, resolveSetting } from '../../providers/credentials.js';
import { joinUrl, type ProviderConnection, requestJson } from '../../providers/http.js';
import { knownDimension } from '../models.js';
import type { EmbeddingBackend } from '../provider.js';
import type { BackendContext } from './context.js';

/**
 * Hugging Face, two servers (`embedding_huggingface_api`):
 * - `inference`: the Inference API's feature-extraction pipeline,
 *   `POST {base}/models/{model}/pipeline/feature-extraction` with `{inputs, normalize: true}`, bearer HF token;
 *   base defaults to https://router.huggingface.co/hf-inference.
 * - `tei`: a Text Embeddings Inference server, `POST {base}/embed` with `{inputs, normalize: true,
 *   truncate: true}`; base defaults to http://localhost:8080, the key is optional.
 * Both answer with one vector per input. Models without a pooling layer answer with token vectors
 * (a list of lists per input); those are mean-pooled here, as sentence-transformers would.
 */
export function createHuggingFaceBackend(context: BackendContext): EmbeddingBackend {
  const { options, model } = context;
  const tei = options.embedding_huggingface_api === 'tei';
  const tokenEnv = ['HF_TOKEN', 'HUGGINGFACEHUB_API_TOKEN'];
  // The hosted Inference API always needs a token; a TEI server only when it was started with one.
  const apiKey = tei
    ? resolveSetting(options.embedding_api_key, context.env, tokenEnv)
    : requireSetting(
        {
          provider: 'huggingface',
          option: 'embedding_api_key',
          description: 'an access token for the Inference API',
        },
        options.embedding_api_key,
        context.env,
        tokenEnv,
      );
  const base =
    resolveSetting(options.embedding_base_url, context.env, []) ??
    (tei ? 'http://localhost:8080' : 'https://router.huggingface.co/hf-inference');
  const url = tei ? joinUrl(base, 'embed') : joinUrl(base, `models/${model}/pipeline/feature-extraction`);
  const connection: ProviderConnection = {
    provider: 'huggingface',
    timeoutMs: options.embedding_timeout_ms,
    secrets: [apiKey],
    ...(context.fetch ? { fetch: context.fetch } : {}),
  };
  return {
    provider: 'huggingface',
    model,
    maxBatchSize: tei ? 32 : 64,
    knownDimension: knownDimension(model),
    async embedBatch(texts) {
      const answer = await requestJson<unknown>(connection, {
        url,
        ...(apiKey ? { headers: { authorization: `Bearer ${apiKey}` } } : {}),
        body: tei ? { inputs: texts, normalize: true, truncate: true } : { inputs: texts, normalize: true },
      });
      if (!Array.isArray(answer)) return answer as number[][];
      return answer.map((vector) =>
        Array.isArray(vector) && Array.isArray(vector[0]) ? meanPool(vector) : vector,
      );
    },
  };
}

function meanPool(tokens: unknown[]): number[] | unknown {
  const rows = tokens as number[][];
  const width = rows[0]?.length ?? 0;
  if (width === 0 || !rows.every((row) => Array.isArray(row) && row.length === width)) return tokens;
  const sum = new Array<number>(width).fill(0);
  for (const row of rows) for (let i = 0; i < width; i++) sum[i]! += row[i]!;
  return sum.map((value) => value / rows.length);
}
