import { afterEach, describe, expect, it } from 'vitest';
import type { TextEmbedder } from '../chunking/strategy.js';
import type { Element } from '../elements/element.js';
import { startOpenAiServer } from '../test-support/provider-servers/openai.js';
import { fakeVector, type ProviderServer } from '../test-support/provider-servers/server.js';
import { embedElements, embedElementsWith } from './embed-elements.js';
import { pickEmbeddingOptions } from './options.js';
import type { EmbeddingProvider } from './provider.js';

const element = (text: string, id: string): Element => ({
  type: 'NarrativeText',
  element_id: id,
  text,
  metadata: { filename: 'a.txt' },
});

let server: ProviderServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('embedElements', () => {
  it('adds embeddings to elements with text, leaves blank ones without the key, and does not mutate', async () => {
    const s = await startOpenAiServer({ apiKey: 'k-123456789' });
    server = s;
    const elements = [element('First.', 'a'), element('   ', 'b'), element('', 'c'), element('Second.', 'd')];
    const result = await embedElements(
      elements,
      {
        embedding_provider: 'openai',
        embedding_api_key: 'k-123456789',
        embedding_base_url: `${s.url}/v1`,
        embedding_dimensions: 4,
      },
      { env: {} },
    );
    expect(result.map((e) => e.embeddings)).toEqual([
      fakeVector('First.', 4),
      undefined,
      undefined,
      fakeVector('Second.', 4),
    ]);
    expect('embeddings' in result[1]!).toBe(false);
    expect(result[0]!.metadata).toEqual({ filename: 'a.txt' });
    expect(elements.some((e) => 'embeddings' in e)).toBe(false);
    expect(s.requests[0]!.body.input).toEqual(['First.', 'Second.']);
  });

  it('is off without embedding_provider, and validates options', async () => {
    const elements = [element('x', 'a')];
    expect(await embedElements(elements, {})).toEqual(elements);
    await expect(embedElements(elements, { embedding_provider: 'nope' as never })).rejects.toMatchObject({
      code: 'invalid_option',
    });
    await expect(
      embedElements(elements, { embedding_batch_size: 0, embedding_provider: 'local' }),
    ).rejects.toMatchObject({
      code: 'invalid_option',
    });
  });

  it('picks its options out of a merged options object, aliases included', () => {
    expect(
      pickEmbeddingOptions({
        strategy: 'fast',
        max_characters: 300,
        embedding_provider: 'ollama',
        embedding_endpoint: 'http://localhost:11434',
      }),
    ).toEqual({ embedding_provider: 'ollama', embedding_endpoint: 'http://localhost:11434' });
  });

  it('works with any provider object, including a chunker-style TextEmbedder', async () => {
    const provider: EmbeddingProvider = {
      name: 'custom',
      model: 'm',
      embed: async (texts) => texts.map((t) => [t.length]),
      dimension: async () => 1,
      close: async () => {},
    };
    // Every provider is also the chunker's TextEmbedder (by_similarity chunking): checked by the compiler.
    const asEmbedder: TextEmbedder = provider;
    expect(await asEmbedder.embed(['ab'])).toEqual([[2]]);
    const result = await embedElementsWith([element('abc', 'a'), element('', 'b')], provider);
    expect(result.map((e) => e.embeddings)).toEqual([[3], undefined]);
  });
});
