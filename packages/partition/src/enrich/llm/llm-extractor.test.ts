import { afterEach, describe, expect, it } from 'vitest';
import type { Element } from '../../elements/element.js';
import { ProviderError } from '../../providers/errors.js';
import { startAnthropicServer } from '../../test-support/provider-servers/anthropic.js';
import { startBedrockServer } from '../../test-support/provider-servers/bedrock.js';
import { startOpenAiServer } from '../../test-support/provider-servers/openai.js';
import type { ProviderServer } from '../../test-support/provider-servers/server.js';
import { startVertexServer } from '../../test-support/provider-servers/vertexai.js';
import { enrichElements } from '../enrich-elements.js';
import type { EntityExtractionOptionsInput } from '../options.js';
import { SYSTEM_PROMPT } from './prompt.js';

const KEY = 'sk-test-0123456789abcdefghij';
const runtime = { env: {}, retry: { initialDelayMs: 1, maxDelayMs: 2, sleep: async () => {} } };
const TEXT = 'Jane Doe joined Acme Corp in Berlin.';
const ANSWER = {
  items: [
    { entity: 'Jane Doe', type: 'PERSON' },
    { entity: 'Acme Corp', type: 'ORGANIZATION' },
    { entity: 'Berlin', type: 'LOCATION' },
  ],
  relationships: [{ from: 'Jane Doe', relationship: 'joined', to: 'Acme Corp' }],
};
const element: Element = {
  type: 'NarrativeText',
  element_id: 'e1',
  text: TEXT,
  metadata: { page_number: 1 },
};

let server: ProviderServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function enrichOne(options: EntityExtractionOptionsInput) {
  const [result] = await enrichElements([element], { entity_extraction: 'llm', ...options }, runtime);
  return result!;
}

describe('LLM entity extraction over the OpenAI wire format', () => {
  it('sends the prompt with a strict json_schema and stores the validated answer', async () => {
    const s = await startOpenAiServer({ apiKey: KEY });
    server = s;
    s.chatReplies.push(JSON.stringify(ANSWER));
    const result = await enrichOne({
      entity_extraction_provider: 'openai',
      entity_extraction_model: 'gpt-4o-mini',
      entity_extraction_api_key: KEY,
      entity_extraction_base_url: `${s.url}/v1`,
    });
    expect(result.metadata.entities).toEqual(ANSWER);
    expect(result.metadata.page_number).toBe(1);
    const request = s.requests[0]!;
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request.body.model).toBe('gpt-4o-mini');
    expect(request.body.temperature).toBe(0);
    expect(request.body.messages[0]).toEqual({ role: 'system', content: SYSTEM_PROMPT });
    expect(JSON.stringify(request.body.messages[1])).toContain(TEXT);
    expect(request.body.response_format.type).toBe('json_schema');
    expect(request.body.response_format.json_schema.strict).toBe(true);
    expect(request.body.response_format.json_schema.schema.required).toEqual(['items', 'relationships']);
  });

  it('retries an invalid answer with the reason, and stores only the valid one', async () => {
    const s = await startOpenAiServer();
    server = s;
    s.chatReplies.push('Here you go: Jane Doe (person)', JSON.stringify(ANSWER));
    const result = await enrichOne({
      entity_extraction_provider: 'openai-compatible',
      entity_extraction_model: 'llama3',
      entity_extraction_base_url: `${s.url}/v1`,
    });
    expect(result.metadata.entities).toEqual(ANSWER);
    expect(s.requests).toHaveLength(2);
    expect(JSON.stringify(s.requests[1]!.body.messages[1])).toContain('previous answer was rejected');
    expect(s.requests[1]!.body.max_tokens).toBeDefined();
  });

  it('reports a provider_error after the retries, storing nothing', async () => {
    const s = await startOpenAiServer();
    server = s;
    const dangling = {
      items: [{ entity: 'Jane Doe', type: 'PERSON' }],
      relationships: [{ from: 'Jane Doe', relationship: 'knows', to: 'Bob' }],
    };
    s.chatReplies.push(
      'not json',
      { content: JSON.stringify(ANSWER).slice(0, 20), finishReason: 'length' },
      JSON.stringify(dangling),
    );
    const error = (await enrichOne({
      entity_extraction_provider: 'vllm',
      entity_extraction_model: 'qwen',
      entity_extraction_base_url: `${s.url}/v1`,
      entity_extraction_max_retries: 2,
    }).catch((e: unknown) => e)) as ProviderError;
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.code).toBe('provider_error');
    expect(error.message).toMatch(/no valid answer in 3 attempts.*not in "items"/);
    expect(s.requests).toHaveLength(3);
  });

  it('retries rate limits without counting them as invalid answers', async () => {
    const s = await startOpenAiServer({ apiKey: KEY });
    server = s;
    s.failNext(2, {
      status: 429,
      headers: { 'retry-after-ms': '1' },
      body: { error: { message: 'slow down' } },
    });
    s.chatReplies.push(JSON.stringify(ANSWER));
    const result = await enrichOne({
      entity_extraction_model: 'gpt-4o-mini',
      entity_extraction_api_key: KEY,
      entity_extraction_base_url: `${s.url}/v1`,
      entity_extraction_max_retries: 0,
    });
    expect(result.metadata.entities).toEqual(ANSWER);
  });

  it('requires a model and a key', async () => {
    await expect(enrichOne({ entity_extraction_provider: 'openai' })).rejects.toMatchObject({
      code: 'invalid_option',
      message: expect.stringContaining('entity_extraction_model'),
    });
    await expect(enrichOne({ entity_extraction_model: 'gpt-4o-mini' })).rejects.toMatchObject({
      code: 'invalid_option',
      message: expect.stringContaining('OPENAI_API_KEY'),
    });
  });
});

describe('LLM entity extraction over other wire formats', () => {
  it('anthropic: forced tool use with the answer schema as input_schema', async () => {
    const s = await startAnthropicServer({ apiKey: KEY });
    server = s;
    s.chatReplies.push(JSON.stringify(ANSWER));
    const result = await enrichOne({
      entity_extraction_provider: 'anthropic',
      entity_extraction_model: 'claude-3-5-haiku-latest',
      entity_extraction_base_url: s.url,
      entity_extraction_api_key: KEY,
    });
    expect(result.metadata.entities).toEqual(ANSWER);
    const request = s.requests[0]!;
    expect(request.path).toBe('/v1/messages');
    expect(request.headers['x-api-key'] ?? request.headers.authorization).toMatch(KEY);
    expect(request.headers['anthropic-version']).toBeTruthy();
    expect(request.body.system).toBe(SYSTEM_PROMPT);
    expect(request.body.tool_choice).toEqual({ type: 'tool', name: 'entities' });
    expect(request.body.tools[0].input_schema.required).toEqual(['items', 'relationships']);
  });

  it('bedrock: Converse with a forced tool, SigV4-signed', async () => {
    const s = await startBedrockServer({ accessKeyId: 'AKIDEXAMPLE' });
    server = s;
    s.chatReplies.push(JSON.stringify(ANSWER));
    const result = await enrichOne({
      entity_extraction_provider: 'bedrock',
      entity_extraction_model: 'anthropic.claude-3-haiku-20240307-v1:0',
      entity_extraction_base_url: s.url,
      entity_extraction_aws_access_key_id: 'AKIDEXAMPLE',
      entity_extraction_aws_secret_access_key: 'secretsecretsecretsecret',
      entity_extraction_aws_region: 'us-east-1',
    });
    expect(result.metadata.entities).toEqual(ANSWER);
    const request = s.requests[0]!;
    expect(request.path).toBe('/model/anthropic.claude-3-haiku-20240307-v1:0/converse');
    expect(request.body.toolConfig.toolChoice).toEqual({ tool: { name: 'entities' } });
    expect(request.body.system).toEqual([{ text: SYSTEM_PROMPT }]);
  });

  it('vertexai: generateContent in JSON mode', async () => {
    const s = await startVertexServer({ token: 'ya29.token' });
    server = s;
    s.chatReplies.push(JSON.stringify(ANSWER));
    const result = await enrichOne({
      entity_extraction_provider: 'vertexai',
      entity_extraction_model: 'gemini-2.0-flash',
      entity_extraction_base_url: s.url,
      entity_extraction_api_key: 'ya29.token',
      entity_extraction_vertex_project: 'proj',
    });
    expect(result.metadata.entities).toEqual(ANSWER);
    const request = s.requests[0]!;
    expect(request.path).toBe(
      '/v1/projects/proj/locations/us-central1/publishers/google/models/gemini-2.0-flash:generateContent',
    );
    expect(request.body.generationConfig.responseMimeType).toBe('application/json');
    expect(request.body.systemInstruction.parts[0].text).toBe(SYSTEM_PROMPT);
  });
});
