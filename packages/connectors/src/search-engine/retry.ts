import { setTimeout as sleep } from 'node:timers/promises';
import { isRetryable } from './classify.js';

/**
 * Retries with exponential backoff for failures that can pass on their own: 429 (the engine's write queue
 * is full), 502/503/504 (a busy or restarting node or proxy) and dropped connections. Everything else
 * (a wrong password, a missing index, a mapping conflict) fails at once: waiting would not change it.
 */
export interface RetryPolicy {
  /** Further attempts after the first one. */
  retries: number;
  /** Delay before the first retry; doubles on each further one. */
  baseDelayMs: number;
  maxDelayMs: number;
}

/** The policy of a connector's `max_retries` option: 0.5 s, 1 s, 2 s ... up to 15 s between attempts. */
export function retryPolicy(retries: number): RetryPolicy {
  return { retries, baseDelayMs: 500, maxDelayMs: 15_000 };
}

/**
 * The wait before retry number `attempt` (0-based): half fixed, half random, so that parallel writers that
 * were throttled together do not all come back at the same moment.
 */
export function backoffDelay(attempt: number, policy: RetryPolicy): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

export async function withRetries<T>(
  operation: () => Promise<T>,
  policy: RetryPolicy,
  signal?: AbortSignal,
  retryable: (error: unknown) => boolean = isRetryable,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await operation();
    } catch (error) {
      if (attempt >= policy.retries || !retryable(error) || signal?.aborted) throw error;
      await sleep(backoffDelay(attempt, policy), undefined, { signal });
    }
  }
}
