import { afterEach, describe, expect, it } from 'vitest';
import { partition } from '../../pipeline/partition.js';
import { type OpenAiServer, startOpenAiServer } from '../../test-support/provider-servers/openai.js';
import { makePdf } from './test-support/make-pdf.js';

const KEY = 'sk-test-pdf-vlm';
let server: OpenAiServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('strategy vlm on PDFs', () => {
  it('renders every page, asks the model for HTML and turns each answer into that page’s elements', async () => {
    server = await startOpenAiServer({ apiKey: KEY });
    server.chatReplies.push('<h2>Results</h2><ul><li>Revenue grew</li></ul>');
    server.chatReplies.push(
      '<table><tr><th>Year</th><th>Sales</th></tr><tr><td>2025</td><td>12</td></tr></table>',
    );
    const data = await makePdf([
      { blocks: [{ kind: 'paragraph', text: 'Page one text drawn for the model to read.' }] },
      { blocks: [{ kind: 'paragraph', text: 'Page two text drawn for the model to read.' }] },
    ]);
    const elements = await partition(
      { data, filename: 'two.pdf' },
      {
        strategy: 'vlm',
        vlm_model_provider: 'openai',
        vlm_model: 'gpt-4o',
        vlm_api_key: KEY,
        vlm_base_url: `${server.url}/v1`,
        starting_page_number: 3,
      },
    );
    // Pages go to the model concurrently, so which page got which answer depends on timing: check that
    // each page holds exactly one whole answer, pages stay in order, and page numbers are offset.
    const pages = [...new Set(elements.map((e) => e.metadata.page_number))];
    expect(pages).toEqual([3, 4]);
    const answers = pages.map((page) =>
      elements.filter((e) => e.metadata.page_number === page).map((e) => [e.type, e.text]),
    );
    expect(answers).toEqual(
      expect.arrayContaining([
        [
          ['Title', 'Results'],
          ['ListItem', 'Revenue grew'],
        ],
        [['Table', 'Year Sales\n2025 12']],
      ]),
    );
    const table = elements.find((e) => e.type === 'Table')!;
    expect(table.metadata.text_as_html).toContain('<th>Year</th>');
    expect(server.requests).toHaveLength(2);
    const body = JSON.stringify(server.requests[0]);
    expect(body).toContain('gpt-4o');
    expect(body).toContain('data:image/png;base64,');
  });

  it('fails with a typed provider error when the model is unreachable', async () => {
    const data = await makePdf([{ blocks: [{ kind: 'paragraph', text: 'Only page.' }] }]);
    await expect(
      partition(
        { data, filename: 'one.pdf' },
        {
          strategy: 'vlm',
          vlm_model_provider: 'openai',
          vlm_model: 'gpt-4o',
          vlm_api_key: KEY,
          vlm_base_url: 'http://127.0.0.1:9/v1',
          vlm_max_retries: 0,
        },
      ),
    ).rejects.toMatchObject({ code: 'provider_error' });
  });
});
