import type { ProviderConnection } from '../../providers/http.js';
import { createOpenAiClient } from '../../providers/sdk-clients.js';
import { fromSdkError } from '../../providers/sdk-errors.js';
import { knownDimension } from '../models.js';
import type { EmbeddingBackend } from '../provider.js';
import { type BackendContext, vectorsByIndex } from './context.js';

/**
 * `POST {base}/embeddings` through the official `openai` SDK: OpenAI, Azure OpenAI
 * (`/openai/deployments/{deployment}/embeddings?api-version=…`, `api-key` header), Together AI and any
 * OpenAI-compatible server (vLLM, LiteLLM, LocalAI, Infinity...).
 * `encoding_format: "float"` is sent explicitly: the SDK would otherwise ask for base64, which several
 * compatible servers do not implement.
 */
export function createOpenAiBackend(provider: string, context: BackendContext): EmbeddingBackend {
  const { options, model } = context;
  const { client, apiKey } = createOpenAiClient({
    provider,
    apiKey: options.embedding_api_key,
    baseUrl: options.embedding_base_url,
    azureEndpoint: options.embedding_azure_endpoint,
    azureApiVersion: options.embedding_azure_api_version,
    azureDeployment: options.embedding_azure_deployment ?? model,
    optionNames: {
      apiKey: 'embedding_api_key',
      baseUrl: 'embedding_base_url',
      azureEndpoint: 'embedding_azure_endpoint',
    },
    timeoutMs: options.embedding_timeout_ms,
    env: context.env,
    fetch: context.fetch,
  });
  const connection: ProviderConnection = {
    provider,
    timeoutMs: options.embedding_timeout_ms,
    secrets: [apiKey],
  };
  const dimensions = options.embedding_dimensions;

  return {
    provider,
    model,
    maxBatchSize: 2048,
    knownDimension: dimensions === undefined ? knownDimension(model) : undefined,
    async embedBatch(texts) {
      try {
        const response = await (await client()).embeddings.create({
          model,
          input: texts,
          encoding_format: 'float',
          ...(dimensions === undefined ? {} : { dimensions }),
        });
        return vectorsByIndex(response.data) as number[][];
      } catch (error) {
        throw fromSdkError(connection, error);
      }
    },
  };
}
