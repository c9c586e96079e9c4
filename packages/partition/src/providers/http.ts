import { ProviderError, parseRetryAfter, summariseErrorBody } from './errors.js';

/** What every provider client needs to make a call; built once from the options. */
export interface ProviderConnection {
  /** Provider name for messages (openai, bedrock...). */
  provider: string;
  /** Per-request time limit in milliseconds. */
  timeoutMs: number;
  /** Values that must never appear in an error message (keys, tokens). */
  secrets: readonly (string | undefined)[];
  /** Replaceable for tests; defaults to the global fetch. */
  fetch?: typeof fetch;
}

export interface JsonRequest {
  url: string;
  method?: 'POST' | 'GET';
  headers?: Record<string, string>;
  body?: unknown;
}

/**
 * Send one JSON request and parse the JSON answer. Every failure becomes a ProviderError:
 * an HTTP error keeps its status (and Retry-After), a network failure or a timeout is retryable,
 * and an answer that is not JSON is not. URLs in messages lose their query string, where some
 * providers (Google) carry keys.
 */
export async function requestJson<T = unknown>(
  connection: ProviderConnection,
  request: JsonRequest,
): Promise<T> {
  const doFetch = connection.fetch ?? fetch;
  const where = describeUrl(request.url);
  let response: Response;
  try {
    response = await doFetch(request.url, {
      method: request.method ?? 'POST',
      headers: {
        accept: 'application/json',
        ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...request.headers,
      },
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      signal: AbortSignal.timeout(connection.timeoutMs),
    });
  } catch (error) {
    throw networkError(connection, where, error);
  }
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    throw networkError(connection, where, error);
  }
  if (!response.ok) {
    const reason = summariseErrorBody(text) || response.statusText;
    throw new ProviderError(connection.provider, `HTTP ${response.status} from ${where}: ${reason}`, {
      status: response.status,
      retryAfterMs: parseRetryAfter(response.headers),
      secrets: connection.secrets,
    });
  }
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new ProviderError(connection.provider, `${where} answered with something that is not JSON`, {
      secrets: connection.secrets,
    });
  }
}

/** A fetch failure: a timeout, a refused connection, a reset. All may succeed on a later attempt. */
export function networkError(connection: ProviderConnection, where: string, error: unknown): ProviderError {
  const name = error instanceof Error ? error.name : '';
  if (name === 'TimeoutError' || name === 'AbortError') {
    return new ProviderError(
      connection.provider,
      `no answer from ${where} within ${connection.timeoutMs} ms`,
      {
        retryable: true,
        secrets: connection.secrets,
      },
    );
  }
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  const message = error instanceof Error ? error.message : String(error);
  return new ProviderError(connection.provider, `could not reach ${where} (${message}${cause})`, {
    retryable: true,
    secrets: connection.secrets,
  });
}

/** Origin and path of a URL, without query string or credentials. */
export function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return 'the provider';
  }
}

/** Join a base URL and a path without doubling or dropping slashes. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}
