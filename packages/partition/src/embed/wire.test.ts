import { afterEach, describe, expect, it } from 'vitest';
import { ProviderError } from '../providers/errors.js';
import { startBedrockServer } from '../test-support/provider-servers/bedrock.js';
import { startHuggingFaceServer } from '../test-support/provider-servers/huggingface.js';
import { startMixedbreadServer } from '../test-support/provider-servers/mixedbread.js';
import { startOllamaServer } from '../test-support/provider-servers/ollama.js';
import { startOpenAiServer } from '../test-support/provider-servers/openai.js';
import { fakeVector, type ProviderServer } from '../test-support/provider-servers/server.js';
import { startVertexServer } from '../test-support/provider-servers/vertexai.js';
import { startVoyageServer } from '../test-support/provider-servers/voyageai.js';
import { createEmbeddingProviderFromOptions } from './create.js';
import type { EmbeddingOptionsInput } from './options.js';

/**
 * Each provider against a local server that speaks its wire format: what was sent (path, auth header,
 * body) and that the answer comes back as one vector per text, in order.
 */
const KEY = 'test-key-0123456789abcdefXYZ';
const TEXTS = ['The cat sat on the mat.', 'Revenue grew 5% in the third quarter.', 'Hello world'];
const instant = { retry: { initialDelayMs: 1, maxDelayMs: 2, sleep: async () => {} }, env: {} };

let server: ProviderServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function embedAll(options: EmbeddingOptionsInput, env: Record<string, string> = {}) {
  const provider = createEmbeddingProviderFromOptions(options, { ...instant, env });
  try {
    return { vectors: await provider.embed(TEXTS), dimension: await provider.dimension() };
  } finally {
    await provider.close();
  }
}

describe('openai', () => {
  it('posts /embeddings with a bearer key, float encoding and dimensions', async () => {
    const s = await startOpenAiServer({ apiKey: KEY });
    server = s;
    const { vectors, dimension } = await embedAll({
      embedding_provider: 'openai',
      embedding_api_key: KEY,
      embedding_base_url: `${s.url}/v1`,
      embedding_dimensions: 256,
      embedding_batch_size: 2,
    });
    expect(vectors).toEqual(TEXTS.map((t) => fakeVector(t, 256)));
    expect(dimension).toBe(256);
    expect(s.requests.map((r) => r.path)).toEqual(['/v1/embeddings', '/v1/embeddings']);
    const first = s.requests[0]!;
    expect(first.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(first.body).toEqual({
      model: 'text-embedding-3-small',
      input: TEXTS.slice(0, 2),
      encoding_format: 'float',
      dimensions: 256,
    });
  });

  it('takes the key from OPENAI_API_KEY and knows the default model size without a request', async () => {
    const s = await startOpenAiServer({ apiKey: KEY });
    server = s;
    const provider = createEmbeddingProviderFromOptions(
      { embedding_provider: 'openai', embedding_base_url: `${s.url}/v1` },
      { ...instant, env: { OPENAI_API_KEY: KEY } },
    );
    expect(await provider.dimension()).toBe(1536);
    expect(s.requests).toHaveLength(0);
    expect((await provider.embed(['x']))[0]).toHaveLength(1536);
  });

  it('reports a wrong key as provider_error without the key, and a missing key as invalid_option', async () => {
    const s = await startOpenAiServer({ apiKey: KEY });
    server = s;
    const wrongKey = 'sk-wrongwrongwrongwrong1234';
    const error = (await embedAll({
      embedding_provider: 'openai',
      embedding_api_key: wrongKey,
      embedding_base_url: `${s.url}/v1`,
    }).catch((e: unknown) => e)) as ProviderError;
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.providerStatus).toBe(401);
    expect(s.requests).toHaveLength(1); // 401 is not retried
    expect(error.message).not.toContain('1234');
    expect(error.message).not.toContain('sk-wro');

    await expect(
      embedAll({ embedding_provider: 'openai', embedding_base_url: `${s.url}/v1` }),
    ).rejects.toMatchObject({
      code: 'invalid_option',
      message: expect.stringContaining('OPENAI_API_KEY'),
    });
  });

  it('retries 429 (honouring Retry-After) and 5xx, then succeeds', async () => {
    const s = await startOpenAiServer({ apiKey: KEY });
    server = s;
    s.failNext(1, {
      status: 429,
      headers: { 'retry-after': '0' },
      body: { error: { message: 'Rate limit' } },
    });
    s.failNext(1, { status: 502, body: 'bad gateway' });
    const { vectors } = await embedAll({
      embedding_provider: 'openai',
      embedding_api_key: KEY,
      embedding_base_url: `${s.url}/v1`,
      embedding_dimensions: 8,
    });
    expect(vectors).toHaveLength(3);
    expect(s.requests).toHaveLength(3);
  });

  it('gives up after embedding_max_retries', async () => {
    const s = await startOpenAiServer({ apiKey: KEY });
    server = s;
    s.failNext(10, { status: 500, body: { error: { message: 'boom' } } });
    const error = (await embedAll({
      embedding_provider: 'openai',
      embedding_api_key: KEY,
      embedding_base_url: `${s.url}/v1`,
      embedding_max_retries: 2,
    }).catch((e: unknown) => e)) as ProviderError;
    expect(error.code).toBe('provider_error');
    expect(error.message).toContain('500');
    expect(s.requests).toHaveLength(3);
  });

  it('fails on a provider that answers with vectors of another size than the model has', async () => {
    const s = await startOpenAiServer({ apiKey: KEY, dimension: 768 });
    server = s;
    await expect(
      embedAll({ embedding_provider: 'openai', embedding_api_key: KEY, embedding_base_url: `${s.url}/v1` }),
    ).rejects.toThrow(/dimension mismatch.*768 numbers.*expected 1536/);
  });
});

describe('azure-openai', () => {
  it('posts to the deployment URL with api-version and the api-key header', async () => {
    const s = await startOpenAiServer({ apiKey: KEY });
    server = s;
    const { vectors } = await embedAll({
      embedding_provider: 'azure-openai',
      embedding_api_key: KEY,
      embedding_azure_endpoint: s.url,
      embedding_azure_api_version: '2024-10-21',
      embedding_model_name: 'text-embedding-3-large',
      embedding_azure_deployment: 'my-embeddings',
    });
    expect(vectors[0]).toHaveLength(3072);
    const request = s.requests[0]!;
    expect(request.path).toBe('/openai/deployments/my-embeddings/embeddings');
    expect(request.query['api-version']).toBe('2024-10-21');
    expect(request.headers['api-key']).toBe(KEY);
    expect(request.headers.authorization).toBeUndefined();
  });

  it('needs an endpoint', async () => {
    await expect(
      embedAll({ embedding_provider: 'azure-openai', embedding_api_key: KEY }),
    ).rejects.toMatchObject({
      code: 'invalid_option',
      message: expect.stringContaining('AZURE_OPENAI_ENDPOINT'),
    });
  });
});

describe('togetherai and openai-compatible', () => {
  it('togetherai uses the OpenAI wire format with TOGETHER_API_KEY', async () => {
    const s = await startOpenAiServer({ apiKey: KEY });
    server = s;
    const { vectors } = await embedAll(
      { embedding_provider: 'togetherai', embedding_base_url: `${s.url}/v1` },
      { TOGETHER_API_KEY: KEY },
    );
    expect(vectors[0]).toHaveLength(768);
    expect(s.requests[0]!.body.model).toBe('togethercomputer/m2-bert-80M-8k-retrieval');
  });

  it('openai-compatible needs a base URL and a model, and works without a key', async () => {
    await expect(embedAll({ embedding_provider: 'openai-compatible' })).rejects.toMatchObject({
      code: 'invalid_option',
    });
    await expect(
      embedAll({ embedding_provider: 'openai-compatible', embedding_model_name: 'bge-m3' }),
    ).rejects.toMatchObject({
      code: 'invalid_option',
      message: expect.stringContaining('embedding_base_url'),
    });
    const s = await startOpenAiServer({ dimension: 1024 });
    server = s;
    const { vectors, dimension } = await embedAll({
      embedding_provider: 'openai-compatible',
      embedding_model_name: 'bge-m3',
      embedding_base_url: `${s.url}/v1`,
    });
    expect(vectors).toEqual(TEXTS.map((t) => fakeVector(t, 1024)));
    expect(dimension).toBe(1024);
  });
});

describe('bedrock', () => {
  const aws = {
    embedding_provider: 'bedrock' as const,
    embedding_aws_access_key_id: 'AKIDEXAMPLE',
    embedding_aws_secret_access_key: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
    embedding_aws_region: 'eu-west-1',
  };

  it('invokes Titan v2 once per text with SigV4 for the bedrock service', async () => {
    const s = await startBedrockServer({ accessKeyId: 'AKIDEXAMPLE' });
    server = s;
    const { vectors, dimension } = await embedAll({
      ...aws,
      embedding_base_url: s.url,
      embedding_dimensions: 512,
    });
    expect(vectors).toEqual(TEXTS.map((t) => fakeVector(t, 512)));
    expect(dimension).toBe(512);
    expect(s.requests).toHaveLength(3);
    const request = s.requests[0]!;
    expect(request.path).toBe('/model/amazon.titan-embed-text-v2:0/invoke');
    expect(request.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-west-1\/bedrock\/aws4_request/,
    );
    expect(request.body).toEqual({ inputText: TEXTS[0], normalize: true, dimensions: 512 });
  });

  it('sends Cohere models a batch of texts', async () => {
    const s = await startBedrockServer({ accessKeyId: 'AKIDEXAMPLE' });
    server = s;
    const { vectors } = await embedAll({
      ...aws,
      embedding_base_url: s.url,
      embedding_model_name: 'cohere.embed-english-v3',
    });
    expect(vectors).toEqual(TEXTS.map((t) => fakeVector(t, 1024)));
    expect(s.requests).toHaveLength(1);
    expect(s.requests[0]!.body).toEqual({ texts: TEXTS, input_type: 'search_document', truncate: 'END' });
  });

  it('reports rejected credentials without the secret key', async () => {
    const s = await startBedrockServer({ accessKeyId: 'SOMEONEELSE' });
    server = s;
    const error = (await embedAll({ ...aws, embedding_base_url: s.url }).catch(
      (e: unknown) => e,
    )) as ProviderError;
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.providerStatus).toBe(403);
    expect(error.message).not.toContain(aws.embedding_aws_secret_access_key);
  });
});

describe('vertexai', () => {
  it('posts :predict for the project and location with a bearer token', async () => {
    const s = await startVertexServer({ token: 'ya29.test-token' });
    server = s;
    const { vectors, dimension } = await embedAll({
      embedding_provider: 'vertexai',
      embedding_api_key: 'ya29.test-token',
      embedding_vertex_project: 'my-project',
      embedding_vertex_location: 'europe-west4',
      embedding_base_url: s.url,
    });
    expect(vectors).toEqual(TEXTS.map((t) => fakeVector(t, 768)));
    expect(dimension).toBe(768);
    const request = s.requests[0]!;
    expect(request.path).toBe(
      '/v1/projects/my-project/locations/europe-west4/publishers/google/models/text-embedding-005:predict',
    );
    expect(request.headers.authorization).toBe('Bearer ya29.test-token');
    expect(request.body).toEqual({
      instances: TEXTS.map((content) => ({ content, task_type: 'RETRIEVAL_DOCUMENT' })),
      parameters: { autoTruncate: true },
    });
  });

  it('needs a project, and rejects JSON that is not a service-account key without echoing it', async () => {
    await expect(
      embedAll({ embedding_provider: 'vertexai', embedding_api_key: 'token' }),
    ).rejects.toMatchObject({
      code: 'invalid_option',
      message: expect.stringContaining('GOOGLE_CLOUD_PROJECT'),
    });
    const error = (await embedAll({
      embedding_provider: 'vertexai',
      embedding_api_key: '{"secret_field": "do-not-print"}',
      embedding_vertex_project: 'p',
    }).catch((e: unknown) => e)) as Error;
    expect(error.message).toContain('service-account');
    expect(error.message).not.toContain('do-not-print');
  });
});

describe('voyageai', () => {
  it('posts /v1/embeddings with input_type document and output_dimension', async () => {
    const s = await startVoyageServer({ apiKey: KEY });
    server = s;
    const { vectors } = await embedAll(
      { embedding_provider: 'voyageai', embedding_base_url: `${s.url}/v1`, embedding_dimensions: 256 },
      { VOYAGE_API_KEY: KEY },
    );
    expect(vectors).toEqual(TEXTS.map((t) => fakeVector(t, 256)));
    expect(s.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(s.requests[0]!.body).toEqual({
      input: TEXTS,
      model: 'voyage-3.5',
      input_type: 'document',
      output_dimension: 256,
    });
  });
});

describe('mixedbread', () => {
  it('posts /v1/embeddings and places vectors by index (also under the ingest name mixedbread-ai)', async () => {
    const s = await startMixedbreadServer({ apiKey: KEY });
    server = s;
    const { vectors } = await embedAll({
      embedding_provider: 'mixedbread-ai',
      embedding_api_key: KEY,
      embedding_base_url: `${s.url}/v1`,
    });
    expect(vectors).toEqual(TEXTS.map((t) => fakeVector(t, 1024)));
    expect(s.requests[0]!.body).toEqual({
      model: 'mixedbread-ai/mxbai-embed-large-v1',
      input: TEXTS,
      normalized: true,
      encoding_format: 'float',
    });
  });
});

describe('huggingface', () => {
  it('calls the Inference API feature-extraction pipeline with HF_TOKEN', async () => {
    const s = await startHuggingFaceServer({ token: 'hf_testtoken123' });
    server = s;
    const { vectors, dimension } = await embedAll(
      { embedding_provider: 'huggingface', embedding_base_url: `${s.url}/hf-inference` },
      { HF_TOKEN: 'hf_testtoken123' },
    );
    expect(vectors).toEqual(TEXTS.map((t) => fakeVector(t, 384)));
    expect(dimension).toBe(384);
    expect(s.requests[0]!.path).toBe(
      '/hf-inference/models/sentence-transformers/all-MiniLM-L6-v2/pipeline/feature-extraction',
    );
    expect(s.requests[0]!.body).toEqual({ inputs: TEXTS, normalize: true });
  });

  it('mean-pools token vectors of models without pooling', async () => {
    const s = await startHuggingFaceServer({ token: 'hf_testtoken123', tokenLevel: true, dimension: 4 });
    server = s;
    const { vectors } = await embedAll({
      embedding_provider: 'huggingface',
      embedding_model_name: 'some/bert',
      embedding_api_key: 'hf_testtoken123',
      embedding_base_url: `${s.url}/hf-inference`,
    });
    vectors.forEach((vector, i) => {
      fakeVector(TEXTS[i]!, 4).forEach((value, j) => {
        expect(vector[j]).toBeCloseTo(value, 6);
      });
    });
  });

  it('calls a TEI server at /embed, with no key needed', async () => {
    const s = await startHuggingFaceServer({ dimension: 1024 });
    server = s;
    const { vectors } = await embedAll({
      embedding_provider: 'huggingface',
      embedding_huggingface_api: 'tei',
      embedding_model_name: 'BAAI/bge-large-en-v1.5',
      embedding_base_url: s.url,
    });
    expect(vectors).toEqual(TEXTS.map((t) => fakeVector(t, 1024)));
    expect(s.requests[0]!.body).toEqual({ inputs: TEXTS, normalize: true, truncate: true });
    expect(s.requests[0]!.headers.authorization).toBeUndefined();
  });

  it('needs a token for the Inference API', async () => {
    await expect(embedAll({ embedding_provider: 'huggingface' })).rejects.toMatchObject({
      code: 'invalid_option',
      message: expect.stringContaining('HF_TOKEN'),
    });
  });
});

describe('ollama', () => {
  it('posts /api/embed at OLLAMA_HOST', async () => {
    const s = await startOllamaServer();
    server = s;
    const { vectors, dimension } = await embedAll(
      { embedding_provider: 'ollama' },
      { OLLAMA_HOST: s.url.replace('http://', '') },
    );
    expect(vectors).toEqual(TEXTS.map((t) => fakeVector(t, 768)));
    expect(dimension).toBe(768);
    expect(s.requests[0]!.body).toEqual({ model: 'nomic-embed-text', input: TEXTS, truncate: true });
  });
});
