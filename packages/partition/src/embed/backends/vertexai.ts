import { type ProviderConnection, requestJson } from '../../providers/http.js';
import { createVertexAccess } from '../../providers/vertex-auth.js';
import { knownDimension } from '../models.js';
import type { EmbeddingBackend } from '../provider.js';
import type { BackendContext } from './context.js';

/**
 * Vertex AI text embeddings (`POST {base}/v1/projects/{p}/locations/{l}/publishers/google/models/{m}:predict`,
 * bearer token): `{instances: [{content, task_type}], parameters: {autoTruncate, outputDimensionality?}}`
 * → `{predictions: [{embeddings: {values}}]}`. Plain fetch, authorised by ../../providers/vertex-auth.
 */
export function createVertexBackend(context: BackendContext): EmbeddingBackend {
  const { options, model } = context;
  const access = createVertexAccess({
    credential: options.embedding_api_key,
    project: options.embedding_vertex_project,
    location: options.embedding_vertex_location,
    baseUrl: options.embedding_base_url,
    env: context.env,
    optionNames: { project: 'embedding_vertex_project', credential: 'embedding_api_key' },
  });
  const connection: ProviderConnection = {
    provider: 'vertexai',
    timeoutMs: options.embedding_timeout_ms,
    secrets: access.secrets,
    ...(context.fetch ? { fetch: context.fetch } : {}),
  };
  const dimensions = options.embedding_dimensions;

  return {
    provider: 'vertexai',
    model,
    // gemini-embedding-001 takes one instance per request; the text-embedding models up to 250.
    maxBatchSize: model.startsWith('gemini-embedding') ? 1 : 250,
    knownDimension: dimensions === undefined ? knownDimension(model) : undefined,
    async embedBatch(texts) {
      const answer = await requestJson<{ predictions?: { embeddings?: { values?: unknown } }[] }>(
        connection,
        {
          url: `${access.modelUrl(model)}:predict`,
          headers: { authorization: await access.authorization() },
          body: {
            instances: texts.map((content) => ({ content, task_type: 'RETRIEVAL_DOCUMENT' })),
            parameters: {
              autoTruncate: true,
              ...(dimensions === undefined ? {} : { outputDimensionality: dimensions }),
            },
          },
        },
      );
      return (answer.predictions ?? []).map((prediction) => prediction.embeddings?.values) as number[][];
    },
  };
}
