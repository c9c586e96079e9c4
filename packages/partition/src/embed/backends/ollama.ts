import { resolveSetting } from '../../providers/credentials.js';
import { joinUrl, type ProviderConnection, requestJson } from '../../providers/http.js';
import { knownDimension } from '../models.js';
import type { EmbeddingBackend } from '../provider.js';
import type { BackendContext } from './context.js';

/**
 * Ollama's native API (`POST {base}/api/embed`): `{model, input, truncate: true, dimensions?}` →
 * `{embeddings}`. No key; the address comes from embedding_base_url or OLLAMA_HOST
 * (default http://localhost:11434). Plain fetch: the `ollama` package adds nothing for one call.
 */
export function createOllamaBackend(context: BackendContext): EmbeddingBackend {
  const { options, model } = context;
  const host =
    resolveSetting(options.embedding_base_url, context.env, ['OLLAMA_HOST']) ?? 'http://localhost:11434';
  const base = /^https?:\/\//.test(host) ? host : `http://${host}`;
  const connection: ProviderConnection = {
    provider: 'ollama',
    timeoutMs: options.embedding_timeout_ms,
    secrets: [options.embedding_api_key],
    ...(context.fetch ? { fetch: context.fetch } : {}),
  };
  const dimensions = options.embedding_dimensions;
  return {
    provider: 'ollama',
    model,
    maxBatchSize: 512,
    knownDimension: dimensions === undefined ? knownDimension(model) : undefined,
    async embedBatch(texts) {
      const answer = await requestJson<{ embeddings?: unknown }>(connection, {
        url: joinUrl(base, 'api/embed'),
        // A key is only useful behind an authenticating proxy; Ollama itself ignores it.
        ...(options.embedding_api_key
          ? { headers: { authorization: `Bearer ${options.embedding_api_key}` } }
          : {}),
        body: { model, input: texts, truncate: true, ...(dimensions === undefined ? {} : { dimensions }) },
      });
      return answer.embeddings as number[][];
    },
  };
}
