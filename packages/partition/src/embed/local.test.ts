import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeTinySentenceModel } from '../test-support/provider-servers/tiny-onnx-model.js';
import { createEmbeddingProviderFromOptions } from './create.js';

const dot = (a: number[], b: number[]) => a.reduce((sum, value, i) => sum + value * b[i]!, 0);
const norm = (a: number[]) => Math.sqrt(dot(a, a));

describe('local: bundled Universal Sentence Encoder lite', () => {
  it('embeds offline into 512 unit-length dimensions that reflect meaning', async () => {
    const provider = createEmbeddingProviderFromOptions({ embedding_provider: 'local' }, { env: {} });
    expect(provider.model).toBe('universal-sentence-encoder-lite');
    expect(await provider.dimension()).toBe(512);
    const [cat, kitten, revenue] = await provider.embed([
      'The cat sits on the mat.',
      'A kitten is resting on a rug.',
      'Quarterly revenue grew by five percent.',
    ]);
    for (const vector of [cat!, kitten!, revenue!]) {
      expect(vector).toHaveLength(512);
      expect(norm(vector)).toBeCloseTo(1, 3);
    }
    expect(dot(cat!, kitten!)).toBeGreaterThan(dot(cat!, revenue!) + 0.2);
    await provider.close();
  });

  it('averages windows of a very long text instead of running the encoder on all of it', async () => {
    const provider = createEmbeddingProviderFromOptions({ embedding_provider: 'local' }, { env: {} });
    const words = 'The board approved the budget for the coming year after a long debate.'.split(' ');
    const long = Array.from({ length: 600 }, (_, i) => words[i % words.length]).join(' ');
    const [vector, short] = await provider.embed([long, 'The board approved the budget.']);
    expect(vector).toHaveLength(512);
    expect(norm(vector!)).toBeCloseTo(1, 4);
    expect(dot(vector!, short!)).toBeGreaterThan(0.5);
    await provider.close();
  });

  it('refuses another model name without a model path', () => {
    expect(() =>
      createEmbeddingProviderFromOptions({
        embedding_provider: 'local',
        embedding_model_name: 'all-MiniLM-L6-v2',
      }),
    ).toThrow(/embedding_model_path/);
  });
});

describe('local: ONNX sentence-transformer folder', () => {
  const root = mkdtempSync(join(tmpdir(), 'docsvc-onnx-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('loads a folder, reads the size from config.json and returns unit vectors', async () => {
    const folder = join(root, 'mean');
    writeTinySentenceModel(folder, { hiddenSize: 8, pooling: 'mean' });
    const provider = createEmbeddingProviderFromOptions({
      embedding_provider: 'local',
      embedding_model_path: folder,
    });
    expect(await provider.dimension()).toBe(8);
    const vectors = await provider.embed(['the cat sat on the mat', 'hello world', 'the cat sat on the mat']);
    expect(vectors).toHaveLength(3);
    for (const vector of vectors) expect(norm(vector)).toBeCloseTo(1, 5);
    expect(vectors[0]).toEqual(vectors[2]);
    expect(vectors[0]).not.toEqual(vectors[1]);
    await provider.close();
  });

  it('ignores padding: a text gives the same vector alone and next to a longer one', async () => {
    const folder = join(root, 'padding');
    writeTinySentenceModel(folder, { pooling: 'mean', onnxSubfolder: true });
    const provider = createEmbeddingProviderFromOptions({
      embedding_provider: 'local',
      embedding_model_path: folder,
    });
    const [alone] = await provider.embed(['hello']);
    const [batched] = await provider.embed([
      'hello',
      'the quarter report said revenue grew on the mat again and again',
    ]);
    alone!.forEach((value, i) => {
      expect(batched![i]).toBeCloseTo(value, 5);
    });
    await provider.close();
  });

  it('uses CLS pooling when the pooling config asks for it', async () => {
    const mean = join(root, 'pool-mean');
    const cls = join(root, 'pool-cls');
    writeTinySentenceModel(mean, { pooling: 'mean' });
    writeTinySentenceModel(cls, { pooling: 'cls' });
    const embedWith = async (folder: string) => {
      const provider = createEmbeddingProviderFromOptions({
        embedding_provider: 'local',
        embedding_model_path: folder,
      });
      const vectors = await provider.embed(['hello world', 'the dog']);
      await provider.close();
      return vectors;
    };
    const [clsA, clsB] = await embedWith(cls);
    const [meanA] = await embedWith(mean);
    // Every text starts with [CLS], so CLS pooling gives the same vector for different texts here.
    expect(clsA).toEqual(clsB);
    expect(clsA).not.toEqual(meanA);
  });

  it('truncates texts longer than the model limit instead of failing', async () => {
    const folder = join(root, 'short');
    writeTinySentenceModel(folder, { maxLength: 6, pooling: 'mean' });
    const provider = createEmbeddingProviderFromOptions({
      embedding_provider: 'local',
      embedding_model_path: folder,
    });
    const [long, short] = await provider.embed([
      'the cat sat on the mat and the dog sat on the cat',
      'the cat sat on',
    ]);
    // 6 tokens = [CLS] + 4 words + [SEP]: the long text keeps "the cat sat on" and its closing [SEP].
    expect(long).toEqual(short);
    await provider.close();
    const roomy = join(root, 'roomy');
    writeTinySentenceModel(roomy, { maxLength: 128, pooling: 'mean' });
    const untruncated = createEmbeddingProviderFromOptions({
      embedding_provider: 'local',
      embedding_model_path: roomy,
    });
    const [full, start] = await untruncated.embed([
      'the cat sat on the mat and the dog sat on the cat',
      'the cat sat on',
    ]);
    expect(full).not.toEqual(start);
    await untruncated.close();
  });

  it('gives invalid_option errors for missing folders, models and tokenizers', async () => {
    const build = (path: string) => () =>
      createEmbeddingProviderFromOptions({ embedding_provider: 'local', embedding_model_path: path });
    expect(build(join(root, 'absent'))).toThrow(/not a folder/);
    const empty = join(root, 'empty');
    writeTinySentenceModel(empty);
    rmSync(join(empty, 'model.onnx'));
    expect(build(empty)).toThrow(/No ONNX model/);
    const noTokenizer = join(root, 'no-tokenizer');
    writeTinySentenceModel(noTokenizer);
    rmSync(join(noTokenizer, 'tokenizer.json'));
    expect(build(noTokenizer)).toThrow(/No tokenizer.json/);
    const broken = join(root, 'broken');
    writeTinySentenceModel(broken);
    writeFileSync(join(broken, 'model.onnx'), 'not a model');
    const provider = build(broken)();
    await expect(provider.embed(['x'])).rejects.toMatchObject({
      code: 'invalid_option',
      message: expect.stringContaining('not a model onnxruntime can load'),
    });
  });
});
