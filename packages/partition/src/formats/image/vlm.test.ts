import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { pageSvg } from '../../ocr/test-support/text-image.js';
import { partition } from '../../pipeline/partition.js';
import { type OpenAiServer, startOpenAiServer } from '../../test-support/provider-servers/openai.js';

const KEY = 'sk-test-image-vlm';
let server: OpenAiServer | undefined;
const saved = { key: process.env.OPENAI_API_KEY, url: process.env.OPENAI_BASE_URL };

afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const [name, value] of [
    ['OPENAI_API_KEY', saved.key],
    ['OPENAI_BASE_URL', saved.url],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe('strategy vlm on images', () => {
  it('sends every page of a TIFF to the model and turns each HTML answer into elements', async () => {
    server = await startOpenAiServer({ apiKey: KEY });
    server.chatReplies.push('<h1>First page</h1><p>Scanned text of the first page.</p>');
    server.chatReplies.push('<h1>Second page</h1><p>Scanned text of the second page.</p>');
    process.env.OPENAI_API_KEY = KEY;
    process.env.OPENAI_BASE_URL = `${server.url}/v1`;
    const page = (text: string) =>
      sharp(Buffer.from(pageSvg({ width: 300, height: 100, blocks: [{ text, x: 10, y: 50, fontSize: 20 }] })))
        .png()
        .toBuffer();
    const data = await sharp([await page('one'), await page('two')], { join: { animated: true } })
      .tiff()
      .toBuffer();
    const elements = await partition(
      { data, filename: 'scan.tiff' },
      { strategy: 'vlm', vlm_model_provider: 'openai', vlm_model: 'gpt-4o' },
    );
    expect(elements.map((e) => [e.type, e.text, e.metadata.page_number])).toEqual([
      ['Title', 'First page', 1],
      ['NarrativeText', 'Scanned text of the first page.', 1],
      ['Title', 'Second page', 2],
      ['NarrativeText', 'Scanned text of the second page.', 2],
    ]);
    expect(server.requests).toHaveLength(2);
  });
});
