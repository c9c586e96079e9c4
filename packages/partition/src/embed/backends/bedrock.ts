import { ProviderError } from '../../providers/errors.js';
import type { ProviderConnection } from '../../providers/http.js';
import { createBedrockClient } from '../../providers/sdk-clients.js';
import { fromSdkError } from '../../providers/sdk-errors.js';
import { knownDimension } from '../models.js';
import type { EmbeddingBackend } from '../provider.js';
import type { BackendContext } from './context.js';

/**
 * AWS Bedrock `InvokeModel` (`POST {endpoint}/model/{modelId}/invoke`, SigV4) through the AWS SDK.
 * The body is the model family's own JSON:
 * - Amazon Titan text embeddings: `{inputText, dimensions?, normalize}` → `{embedding}`, one text a call;
 * - Cohere embed v3: `{texts, input_type: "search_document", truncate: "END"}` → `{embeddings}`, up to 96.
 */
export function createBedrockBackend(context: BackendContext): EmbeddingBackend {
  const { options, model } = context;
  const client = createBedrockClient({
    region: options.embedding_aws_region,
    accessKeyId: options.embedding_aws_access_key_id,
    secretAccessKey: options.embedding_aws_secret_access_key,
    sessionToken: options.embedding_aws_session_token,
    endpoint: options.embedding_base_url,
    timeoutMs: options.embedding_timeout_ms,
    env: context.env,
  });
  const connection: ProviderConnection = {
    provider: 'bedrock',
    timeoutMs: options.embedding_timeout_ms,
    secrets: [options.embedding_aws_secret_access_key, options.embedding_aws_session_token],
  };
  const cohere = model.includes('cohere.');
  const titanV2 = model.startsWith('amazon.titan-embed-text-v2');
  const dimensions = options.embedding_dimensions;

  let used = false;
  const invoke = async (body: unknown): Promise<Record<string, unknown>> => {
    used = true;
    let raw: Uint8Array | undefined;
    try {
      const { InvokeModelCommand } = await import('@aws-sdk/client-bedrock-runtime');
      const response = await (await client()).send(
        new InvokeModelCommand({
          modelId: model,
          contentType: 'application/json',
          accept: 'application/json',
          body: new TextEncoder().encode(JSON.stringify(body)),
        }),
      );
      raw = response.body;
    } catch (error) {
      throw fromSdkError(connection, error);
    }
    try {
      return JSON.parse(new TextDecoder().decode(raw)) as Record<string, unknown>;
    } catch {
      throw new ProviderError('bedrock', `model ${model} answered with something that is not JSON`);
    }
  };

  return {
    provider: 'bedrock',
    model,
    maxBatchSize: cohere ? 96 : 1,
    knownDimension: dimensions === undefined ? knownDimension(model) : undefined,
    async embedBatch(texts) {
      if (cohere) {
        const answer = await invoke({ texts, input_type: 'search_document', truncate: 'END' });
        return answer.embeddings as number[][];
      }
      const vectors: unknown[] = [];
      for (const text of texts) {
        const body = titanV2
          ? { inputText: text, normalize: true, ...(dimensions === undefined ? {} : { dimensions }) }
          : { inputText: text };
        vectors.push((await invoke(body)).embedding);
      }
      return vectors as number[][];
    },
    async close() {
      if (used) (await client()).destroy();
    },
  };
}
