import { describe, expect, it } from 'vitest';
import { ServiceError } from '../errors.js';
import { ProviderError } from './errors.js';
import { backoffMs, type RetryPolicy, withRetries } from './retry.js';

function policy(maxRetries: number, waits: number[]): RetryPolicy {
  return {
    maxRetries,
    initialDelayMs: 100,
    maxDelayMs: 5_000,
    sleep: async (ms) => {
      waits.push(ms);
    },
    random: () => 0.5,
  };
}

describe('withRetries', () => {
  it('retries retryable provider errors and returns the first success', async () => {
    const waits: number[] = [];
    let calls = 0;
    const result = await withRetries(
      async () => {
        calls++;
        if (calls < 3) throw new ProviderError('openai', 'HTTP 503', { status: 503 });
        return 'done';
      },
      policy(4, waits),
    );
    expect(result).toBe('done');
    expect(calls).toBe(3);
    // Exponential: ceiling 100 then 200, half fixed + half jitter (random 0.5).
    expect(waits).toEqual([75, 150]);
  });

  it('waits what Retry-After asked for, capped at maxDelayMs', async () => {
    const waits: number[] = [];
    let calls = 0;
    await withRetries(
      async () => {
        calls++;
        if (calls === 1) throw new ProviderError('openai', 'HTTP 429', { status: 429, retryAfterMs: 1_200 });
        if (calls === 2) throw new ProviderError('openai', 'HTTP 429', { status: 429, retryAfterMs: 60_000 });
        return 'ok';
      },
      policy(4, waits),
    );
    expect(waits).toEqual([1_200, 5_000]);
  });

  it('gives up after maxRetries and throws the last error', async () => {
    const waits: number[] = [];
    let calls = 0;
    const error = await withRetries(
      async () => {
        calls++;
        throw new ProviderError('voyageai', `HTTP 500 #${calls}`, { status: 500 });
      },
      policy(2, waits),
    ).catch((e: unknown) => e);
    expect(calls).toBe(3);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).message).toContain('#3');
    expect((error as ProviderError).code).toBe('provider_error');
  });

  it('does not retry client errors or other failures', async () => {
    for (const thrown of [
      new ProviderError('openai', 'HTTP 400', { status: 400 }),
      new ProviderError('openai', 'HTTP 401', { status: 401 }),
      new ServiceError('invalid_option', 'bad'),
      new Error('bug'),
    ]) {
      let calls = 0;
      await expect(
        withRetries(
          async () => {
            calls++;
            throw thrown;
          },
          policy(5, []),
        ),
      ).rejects.toBe(thrown);
      expect(calls).toBe(1);
    }
  });
});

describe('backoffMs', () => {
  it('stays between half the ceiling and the ceiling', () => {
    const p: RetryPolicy = { maxRetries: 10, initialDelayMs: 500, maxDelayMs: 4_000 };
    for (let attempt = 0; attempt < 8; attempt++) {
      const ceiling = Math.min(4_000, 500 * 2 ** attempt);
      expect(backoffMs(attempt, p, undefined, () => 0)).toBe(ceiling / 2);
      expect(backoffMs(attempt, p, undefined, () => 0.999999)).toBeLessThanOrEqual(ceiling);
    }
  });
});
