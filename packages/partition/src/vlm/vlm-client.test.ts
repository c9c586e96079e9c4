import sharp from 'sharp';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ProviderError } from '../providers/errors.js';
import { startAnthropicServer } from '../test-support/provider-servers/anthropic.js';
import { startBedrockServer } from '../test-support/provider-servers/bedrock.js';
import { startOpenAiServer } from '../test-support/provider-servers/openai.js';
import type { ProviderServer } from '../test-support/provider-servers/server.js';
import { startVertexServer } from '../test-support/provider-servers/vertexai.js';
import { MAX_SIDE } from './page-image.js';
import { VLM_SYSTEM_PROMPT } from './prompt.js';
import { createVlmClient, vlmPageToDrafts } from './vlm-client.js';

const KEY = 'sk-vlm-0123456789abcdefghij';
const runtime = { env: {}, retry: { initialDelayMs: 1, maxDelayMs: 2, sleep: async () => {} } };
const PAGE_HTML = `<header>ACME Annual Report</header>
<h1>Results</h1>
<p>Revenue grew in every region during the year.</p>
<ul><li>North: 12%</li><li>South: 9%</li></ul>
<table><tr><th>Region</th><th>Revenue</th></tr><tr><td>North</td><td>1.2</td></tr></table>
<footer>Page 3</footer>`;

let page: { png: Uint8Array; width: number; height: number };
beforeAll(async () => {
  const png = await sharp({ create: { width: 60, height: 80, channels: 4, background: '#ffffff' } })
    .png()
    .toBuffer();
  page = { png: new Uint8Array(png), width: 60, height: 80 };
});

let server: ProviderServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function expectPageDrafts(drafts: Awaited<ReturnType<typeof vlmPageToDrafts>>) {
  expect(drafts.map((d) => [d.type, d.text])).toEqual([
    ['Header', 'ACME Annual Report'],
    ['Title', 'Results'],
    ['NarrativeText', 'Revenue grew in every region during the year.'],
    ['ListItem', 'North: 12%'],
    ['ListItem', 'South: 9%'],
    ['Table', expect.stringContaining('North')],
    ['Footer', 'Page 3'],
  ]);
  for (const d of drafts) expect(d.metadata).toMatchObject({ page_number: 3, detection_origin: 'vlm' });
  expect(drafts[5]!.metadata?.text_as_html).toContain('<td>1.2</td>');
}

const isPng = (base64: string) => Buffer.from(base64, 'base64').subarray(1, 4).toString() === 'PNG';

describe('vlmPageToDrafts', () => {
  it('openai: sends the page as a data: URL with the prompt, and partitions the HTML answer', async () => {
    const s = await startOpenAiServer({ apiKey: KEY });
    server = s;
    s.chatReplies.push(`\`\`\`html\n${PAGE_HTML}\n\`\`\``);
    const drafts = await vlmPageToDrafts(
      page,
      3,
      { vlm_model_provider: 'openai', vlm_model: 'gpt-4o', vlm_api_key: KEY, vlm_base_url: `${s.url}/v1` },
      runtime,
    );
    expectPageDrafts(drafts);
    const body = s.requests[0]!.body;
    expect(body.model).toBe('gpt-4o');
    expect(body.messages[0]).toEqual({ role: 'system', content: VLM_SYSTEM_PROMPT });
    const [text, image] = body.messages[1].content;
    expect(text.text).toContain('page 3');
    expect(image.type).toBe('image_url');
    const url = image.image_url.url as string;
    expect(url.startsWith('data:image/png;base64,')).toBe(true);
    expect(Buffer.from(url.split(',')[1]!, 'base64').equals(Buffer.from(page.png))).toBe(true);
    expect(body.max_completion_tokens).toBe(8192);
  });

  it('azure-openai: deployment URL, api-key header, key from AZURE_OPENAI_API_KEY', async () => {
    const s = await startOpenAiServer({ apiKey: KEY });
    server = s;
    s.chatReplies.push(PAGE_HTML);
    const drafts = await vlmPageToDrafts(
      page,
      3,
      {
        vlm_model_provider: 'azure',
        vlm_model: 'gpt-4o',
        vlm_azure_endpoint: s.url,
        vlm_azure_deployment: 'vision',
      },
      { ...runtime, env: { AZURE_OPENAI_API_KEY: KEY } },
    );
    expectPageDrafts(drafts);
    expect(s.requests[0]!.path).toBe('/openai/deployments/vision/chat/completions');
    expect(s.requests[0]!.headers['api-key']).toBe(KEY);
  });

  it('anthropic: base64 image block before the text', async () => {
    const s = await startAnthropicServer({ apiKey: KEY });
    server = s;
    s.chatReplies.push(PAGE_HTML);
    const drafts = await vlmPageToDrafts(
      page,
      3,
      { vlm_model_provider: 'anthropic', vlm_model: 'claude-sonnet-4-0', vlm_base_url: s.url },
      { ...runtime, env: { ANTHROPIC_API_KEY: KEY } },
    );
    expectPageDrafts(drafts);
    const body = s.requests[0]!.body;
    expect(body.system).toBe(VLM_SYSTEM_PROMPT);
    expect(body.max_tokens).toBe(8192);
    const [image, text] = body.messages[0].content;
    expect(image.type).toBe('image');
    expect(image.source.media_type).toBe('image/png');
    expect(isPng(image.source.data)).toBe(true);
    expect(text.type).toBe('text');
  });

  it('bedrock: Converse with an image block, SigV4-signed', async () => {
    const s = await startBedrockServer({ accessKeyId: 'AKIDEXAMPLE' });
    server = s;
    s.chatReplies.push(PAGE_HTML);
    const drafts = await vlmPageToDrafts(
      page,
      3,
      {
        vlm_model_provider: 'bedrock',
        vlm_model: 'anthropic.claude-3-5-sonnet-20240620-v1:0',
        vlm_base_url: s.url,
        vlm_aws_access_key_id: 'AKIDEXAMPLE',
        vlm_aws_secret_access_key: 'secretsecretsecretsecret',
        vlm_aws_region: 'us-east-1',
      },
      runtime,
    );
    expectPageDrafts(drafts);
    const [image, text] = s.requests[0]!.body.messages[0].content;
    expect(image.image.format).toBe('png');
    expect(isPng(image.image.source.bytes)).toBe(true);
    expect(text.text).toContain('page 3');
  });

  it('vertexai: generateContent with inlineData', async () => {
    const s = await startVertexServer({ token: 'ya29.vlm' });
    server = s;
    s.chatReplies.push(PAGE_HTML);
    const drafts = await vlmPageToDrafts(
      page,
      3,
      {
        vlm_model_provider: 'vertexai',
        vlm_model: 'gemini-2.0-flash',
        vlm_base_url: s.url,
        vlm_api_key: 'ya29.vlm',
      },
      { ...runtime, env: { GOOGLE_CLOUD_PROJECT: 'proj', GOOGLE_CLOUD_LOCATION: 'europe-west1' } },
    );
    expectPageDrafts(drafts);
    const request = s.requests[0]!;
    expect(request.path).toBe(
      '/v1/projects/proj/locations/europe-west1/publishers/google/models/gemini-2.0-flash:generateContent',
    );
    const [image] = request.body.contents[0].parts;
    expect(image.inlineData.mimeType).toBe('image/png');
    expect(isPng(image.inlineData.data)).toBe(true);
  });

  it('encodes RGBA pixels to PNG and scales large pages down', async () => {
    const s = await startOpenAiServer({ apiKey: KEY });
    server = s;
    const client = createVlmClient(
      { vlm_model_provider: 'vllm', vlm_model: 'qwen2-vl', vlm_base_url: `${s.url}/v1`, vlm_api_key: KEY },
      runtime,
    );
    const width = 3000;
    const height = 1000;
    s.chatReplies.push('<p>Wide page</p>');
    const drafts = await client.pageToDrafts(
      { rgba: new Uint8Array(width * height * 4).fill(200), width, height },
      1,
    );
    expect(drafts.map((d) => d.text)).toEqual(['Wide page']);
    const url = s.requests[0]!.body.messages[1].content[1].image_url.url as string;
    const meta = await sharp(Buffer.from(url.split(',')[1]!, 'base64')).metadata();
    expect(meta.format).toBe('png');
    expect(meta.width).toBe(MAX_SIDE);
    expect(meta.height).toBe(Math.round((MAX_SIDE * height) / width));
  });

  it('fails a page whose answer was cut off, and retries rate limits', async () => {
    const s = await startOpenAiServer({ apiKey: KEY });
    server = s;
    s.failNext(1, { status: 429, headers: { 'retry-after': '0' }, body: { error: { message: 'busy' } } });
    s.chatReplies.push({ content: '<p>Half a pa', finishReason: 'length' });
    const error = (await vlmPageToDrafts(
      page,
      2,
      {
        vlm_model_provider: 'openai',
        vlm_model: 'gpt-4o',
        vlm_api_key: KEY,
        vlm_base_url: `${s.url}/v1`,
        vlm_max_tokens: 512,
      },
      runtime,
    ).catch((e: unknown) => e)) as ProviderError;
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.message).toMatch(/page 2 was cut off at vlm_max_tokens=512/);
    expect(s.requests).toHaveLength(2);
  });

  it('reads only its own options out of the merged partition options', async () => {
    const s = await startOpenAiServer({ apiKey: KEY });
    server = s;
    s.chatReplies.push('<h2>Section</h2>');
    const merged = {
      strategy: 'vlm',
      languages: ['eng'],
      coordinates: false,
      chunking_strategy: 'by_title',
      vlm_model_provider: 'openai',
      vlm_model: 'gpt-4o-mini',
      vlm_api_key: KEY,
      vlm_base_url: `${s.url}/v1`,
      vlm_max_tokens: 1024,
    };
    const drafts = await vlmPageToDrafts(page, 1, merged, runtime);
    expect(drafts).toMatchObject([{ type: 'Title', text: 'Section' }]);
    expect(s.requests[0]!.body.max_completion_tokens).toBe(1024);
    expect(() => createVlmClient({ ...merged, vlm_max_tokens: 5 }, runtime)).toThrow(/vlm_max_tokens/);
  });

  it('rejects missing or unknown providers and models as invalid options', () => {
    expect(() => createVlmClient({ vlm_model: 'x' }, runtime)).toThrow(/vlm_model_provider/);
    expect(() => createVlmClient({ vlm_model_provider: 'openai' }, runtime)).toThrow(/vlm_model/);
    expect(() => createVlmClient({ vlm_model_provider: 'clippy', vlm_model: 'x' }, runtime)).toThrow(
      /Unknown provider "clippy". Supported: openai, azure-openai/,
    );
    expect(() => createVlmClient({ vlm_model_provider: 'openai', vlm_model: 'gpt-4o' }, runtime)).toThrow(
      /OPENAI_API_KEY/,
    );
  });
});
