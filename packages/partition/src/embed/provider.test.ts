import { describe, expect, it } from 'vitest';
import { ProviderError } from '../providers/errors.js';
import { fakeVector } from '../test-support/provider-servers/server.js';
import { createEmbeddingProvider, type EmbeddingBackend } from './provider.js';

const instant = { maxRetries: 3, initialDelayMs: 1, maxDelayMs: 1, sleep: async () => {} };

function backend(
  overrides: Partial<EmbeddingBackend> = {},
  dimension = 4,
): EmbeddingBackend & { calls: string[][] } {
  const calls: string[][] = [];
  return {
    provider: 'fake',
    model: 'fake-model',
    maxBatchSize: 100,
    calls,
    async embedBatch(texts) {
      calls.push(texts);
      return texts.map((text) => fakeVector(text, dimension));
    },
    ...overrides,
  };
}

describe('createEmbeddingProvider', () => {
  it('splits into batches of the smaller of the option and the provider limit, keeping order', async () => {
    const fake = backend({ maxBatchSize: 3 });
    const provider = createEmbeddingProvider(fake, { batchSize: 5, concurrency: 2, retry: instant });
    const texts = Array.from({ length: 8 }, (_, i) => `text ${i}`);
    const vectors = await provider.embed(texts);
    expect(fake.calls.map((c) => c.length)).toEqual([3, 3, 2]);
    expect(vectors).toEqual(texts.map((t) => fakeVector(t, 4)));
    expect(await provider.embed([])).toEqual([]);
  });

  it('never has more requests in flight than the concurrency limit', async () => {
    let inFlight = 0;
    let peak = 0;
    const fake = backend({
      maxBatchSize: 1,
      async embedBatch(texts) {
        inFlight++;
        peak = Math.max(peak, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inFlight--;
        return texts.map((t) => fakeVector(t, 4));
      },
    });
    const provider = createEmbeddingProvider(fake, { batchSize: 1, concurrency: 3, retry: instant });
    await provider.embed(Array.from({ length: 12 }, (_, i) => `t${i}`));
    expect(peak).toBe(3);
    const single = createEmbeddingProvider(
      { ...fake, maxConcurrency: 1 },
      { batchSize: 1, concurrency: 8, retry: instant },
    );
    peak = 0;
    await single.embed(['a', 'b', 'c']);
    expect(peak).toBe(1);
  });

  it('retries a batch that failed with a retryable error', async () => {
    let failures = 1;
    const fake = backend({
      async embedBatch(texts) {
        if (failures-- > 0) throw new ProviderError('fake', 'HTTP 429', { status: 429 });
        return texts.map((t) => fakeVector(t, 4));
      },
    });
    const provider = createEmbeddingProvider(fake, { batchSize: 10, concurrency: 1, retry: instant });
    expect(await provider.embed(['x'])).toHaveLength(1);
  });

  it('fails clearly on a vector of the wrong length', async () => {
    const wrong = backend({ knownDimension: 8 });
    const provider = createEmbeddingProvider(wrong, { batchSize: 10, concurrency: 1, retry: instant });
    const error = (await provider.embed(['a', 'b']).catch((e: unknown) => e)) as ProviderError;
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.code).toBe('provider_error');
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(
      /dimension mismatch.*4 numbers.*expected 8 \(from the size of model fake-model\)/,
    );

    const requested = createEmbeddingProvider(backend(), {
      batchSize: 10,
      concurrency: 1,
      retry: instant,
      requestedDimension: 16,
    });
    await expect(requested.embed(['a'])).rejects.toThrow(/expected 16 \(from embedding_dimensions\)/);
  });

  it('fails when vectors change length within a run, when counts differ, or when a vector is not numbers', async () => {
    let call = 0;
    const drifting = backend({
      maxBatchSize: 1,
      async embedBatch(texts) {
        call++;
        return texts.map((t) => fakeVector(t, call === 1 ? 4 : 5));
      },
    });
    const provider = createEmbeddingProvider(drifting, { batchSize: 1, concurrency: 1, retry: instant });
    await expect(provider.embed(['a', 'b'])).rejects.toThrow(/5 numbers for text 1; expected 4/);

    const short = createEmbeddingProvider(backend({ embedBatch: async () => [[1, 2]] }), {
      batchSize: 10,
      concurrency: 1,
      retry: instant,
    });
    await expect(short.embed(['a', 'b'])).rejects.toThrow(/returned 1 vectors for 2 texts/);

    const junk = createEmbeddingProvider(
      backend({ embedBatch: async () => [['x', 'y']] as unknown as number[][] }),
      {
        batchSize: 10,
        concurrency: 1,
        retry: instant,
      },
    );
    await expect(junk.embed(['a'])).rejects.toThrow(/invalid vector for text 0/);
  });

  it('batches similar lengths together when the backend asks, and still answers in input order', async () => {
    const fake = backend({ sortByLength: true, maxBatchSize: 2 });
    const provider = createEmbeddingProvider(fake, { batchSize: 2, concurrency: 1, retry: instant });
    const texts = ['ccc', 'a', 'dddd', 'bb'];
    expect(await provider.embed(texts)).toEqual(texts.map((t) => fakeVector(t, 4)));
    expect(fake.calls).toEqual([
      ['a', 'bb'],
      ['ccc', 'dddd'],
    ]);
    const wrong = createEmbeddingProvider(backend({ sortByLength: true, knownDimension: 3 }), {
      batchSize: 10,
      concurrency: 1,
      retry: instant,
    });
    // The error names the caller's index of the first text checked (the shortest, "a" at index 1).
    await expect(wrong.embed(['ccc', 'a'])).rejects.toThrow(/for text 1;/);
  });

  it('knows its dimension from the model, or learns it with one request', async () => {
    const known = backend({ knownDimension: 4 });
    const provider = createEmbeddingProvider(known, { batchSize: 10, concurrency: 1, retry: instant });
    expect(await provider.dimension()).toBe(4);
    expect(known.calls).toHaveLength(0);

    const unknown = backend({}, 6);
    const learning = createEmbeddingProvider(unknown, { batchSize: 10, concurrency: 1, retry: instant });
    expect(await learning.dimension()).toBe(6);
    expect(unknown.calls).toEqual([['Q']]);
    expect(await learning.dimension()).toBe(6);
    expect(unknown.calls).toHaveLength(1);
  });
});
