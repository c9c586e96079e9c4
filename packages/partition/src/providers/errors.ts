import { ServiceError } from '../errors.js';
import { redactSecrets } from './redact.js';

/**
 * A failed call to a remote model provider (embedding, LLM, VLM). It is a `provider_error`
 * ServiceError for every caller, and carries what the retry loop needs: whether trying again can help
 * and how long the provider asked us to wait. Messages are redacted before they are stored, so a key
 * that a provider echoes back (some do, in 401 bodies) never reaches logs or API responses. No `cause`
 * is kept: an SDK's error object can hold request details, keys included.
 */
export class ProviderError extends ServiceError {
  /** Provider name as the user wrote it (openai, bedrock...). */
  readonly provider: string;
  /** HTTP status the provider answered with; undefined for network failures and timeouts. */
  readonly providerStatus: number | undefined;
  /** True for 408, 409, 429, 5xx, network failures and timeouts: the same call may succeed later. */
  readonly retryable: boolean;
  /** Wait the provider asked for (Retry-After / retry-after-ms), in milliseconds. */
  readonly retryAfterMs: number | undefined;

  constructor(
    provider: string,
    message: string,
    options: {
      status?: number;
      retryable?: boolean;
      retryAfterMs?: number;
      secrets?: readonly (string | undefined)[];
    } = {},
  ) {
    const status = options.status;
    super('provider_error', redactSecrets(`${provider}: ${message}`, options.secrets ?? []));
    this.provider = provider;
    this.providerStatus = status;
    this.retryable = options.retryable ?? (status === undefined ? false : isRetryableStatus(status));
    this.retryAfterMs = options.retryAfterMs;
  }
}

/** Statuses worth retrying: rate limits, conflicts/timeouts at the edge, and server-side failures. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * Parse the wait a provider asks for. `retry-after-ms` (OpenAI, Anthropic) wins over `Retry-After`,
 * which is either seconds or an HTTP date. Returns undefined when absent or unreadable.
 */
export function parseRetryAfter(
  headers: { get(name: string): string | null | undefined } | undefined,
  now: number = Date.now(),
): number | undefined {
  if (!headers) return undefined;
  const milliseconds = headers.get('retry-after-ms');
  if (milliseconds) {
    const value = Number(milliseconds);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const retryAfter = headers.get('retry-after');
  if (!retryAfter) return undefined;
  const seconds = Number(retryAfter);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(retryAfter);
  if (Number.isFinite(date)) return Math.max(0, date - now);
  return undefined;
}

/** A short, readable reason from a provider's error body (JSON `error.message`, `message`, or text). */
export function summariseErrorBody(body: string): string {
  const trimmed = body.trim();
  if (!trimmed) return '';
  try {
    const parsed = JSON.parse(trimmed) as unknown;
    const message = findMessage(parsed);
    if (message) return truncate(message);
  } catch {
    // not JSON
  }
  return truncate(trimmed.replace(/\s+/g, ' '));
}

function findMessage(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (!value || typeof value !== 'object') return undefined;
  const record = value as Record<string, unknown>;
  for (const key of ['message', 'error', 'detail', 'Message', 'error_description']) {
    const found = findMessage(record[key]);
    if (found) return found;
  }
  return undefined;
}

function truncate(text: string, max = 300): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
