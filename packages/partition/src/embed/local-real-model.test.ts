import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createEmbeddingProviderFromOptions } from './create.js';

/**
 * The ONNX loader on a real sentence-transformer, when one is given: DOCSVC_EMBEDDING_MODEL_PATH=<folder>
 * (docs/embeddings.md shows how to assemble all-MiniLM-L6-v2 from registry packages). Skipped otherwise:
 * no model is ever downloaded by the tests.
 */
const folder = process.env.DOCSVC_EMBEDDING_MODEL_PATH;
const dot = (a: number[], b: number[]) => a.reduce((sum, value, i) => sum + value * b[i]!, 0);

describe.skipIf(!folder || !existsSync(folder))('local: a real ONNX sentence-transformer', () => {
  it('gives unit vectors of the configured size whose similarities follow meaning', async () => {
    const provider = createEmbeddingProviderFromOptions({
      embedding_provider: 'local',
      embedding_model_path: folder!,
    });
    const size = await provider.dimension();
    const [cat, kitten, revenue, long] = await provider.embed([
      'The cat sits on the mat.',
      'A kitten is resting on a rug.',
      'Quarterly revenue grew by five percent.',
      'word '.repeat(2_000),
    ]);
    for (const vector of [cat!, kitten!, revenue!, long!]) {
      expect(vector).toHaveLength(size);
      expect(Math.sqrt(dot(vector, vector))).toBeCloseTo(1, 4);
    }
    expect(dot(cat!, kitten!)).toBeGreaterThan(dot(cat!, revenue!) + 0.3);
    await provider.close();
  });
});
