import { ProviderError } from './errors.js';

/** How a provider call is retried. One policy for every provider, whatever SDK sits underneath. */
export interface RetryPolicy {
  /** Attempts after the first one. 0 = no retry. */
  maxRetries: number;
  /** First backoff; doubles each attempt (with jitter). */
  initialDelayMs: number;
  /** Upper bound of one wait, also applied to a provider's Retry-After. */
  maxDelayMs: number;
  /** Injected for tests; defaults to a real timer. */
  sleep?: (ms: number) => Promise<void>;
  /** Injected for tests; defaults to Math.random. */
  random?: () => number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 4, initialDelayMs: 500, maxDelayMs: 30_000 };

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Run `call`, retrying when it throws a retryable ProviderError (429, 5xx, network failure, timeout).
 * The wait is the provider's Retry-After when it gave one (capped at maxDelayMs), otherwise
 * exponential backoff with "full jitter" so parallel batches do not retry in lockstep.
 * Anything else (a 400, a 401, a typed validation error) is thrown at once.
 */
export async function withRetries<T>(call: (attempt: number) => Promise<T>, policy: RetryPolicy): Promise<T> {
  const sleep = policy.sleep ?? realSleep;
  const random = policy.random ?? Math.random;
  for (let attempt = 0; ; attempt++) {
    try {
      return await call(attempt);
    } catch (error) {
      if (!(error instanceof ProviderError) || !error.retryable || attempt >= policy.maxRetries) throw error;
      await sleep(backoffMs(attempt, policy, error.retryAfterMs, random));
    }
  }
}

export function backoffMs(
  attempt: number,
  policy: RetryPolicy,
  retryAfterMs: number | undefined,
  random: () => number = Math.random,
): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, policy.maxDelayMs);
  const ceiling = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** attempt);
  // Never less than half the ceiling: a retry right away would most likely hit the same limit.
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
