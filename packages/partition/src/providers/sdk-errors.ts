import { ProviderError, parseRetryAfter } from './errors.js';
import type { ProviderConnection } from './http.js';

/**
 * Turn an error thrown by a provider SDK (openai, @anthropic-ai/sdk, the AWS SDK) into a ProviderError,
 * so the one retry loop in ./retry.ts handles every provider alike. The SDKs' own retries are switched
 * off where the clients are built (maxRetries: 0 / maxAttempts: 1).
 *
 * Duck-typed on purpose: the SDKs share the shape (status + headers for Stainless clients,
 * $metadata.httpStatusCode for AWS) without a common class.
 */
export function fromSdkError(connection: ProviderConnection, error: unknown): ProviderError {
  if (error instanceof ProviderError) return error;
  const secrets = connection.secrets;
  if (!(error instanceof Error)) {
    return new ProviderError(connection.provider, String(error), { secrets });
  }
  const record = error as Error & {
    status?: unknown;
    headers?: unknown;
    $metadata?: { httpStatusCode?: number };
    $retryable?: unknown;
    $response?: { headers?: Record<string, string> };
  };
  const name = error.name;
  if (/Timeout/i.test(name) || name === 'AbortError') {
    return new ProviderError(connection.provider, `no answer within ${connection.timeoutMs} ms`, {
      retryable: true,
      secrets,
    });
  }
  if (name === 'APIConnectionError' || isNodeNetworkError(error)) {
    const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
    return new ProviderError(connection.provider, `could not reach the provider: ${error.message}${cause}`, {
      retryable: true,
      secrets,
    });
  }
  // Stainless SDKs (openai, anthropic): status + Headers.
  if (typeof record.status === 'number') {
    const headers = record.headers instanceof Headers ? record.headers : undefined;
    return new ProviderError(connection.provider, `HTTP ${record.status}: ${error.message}`, {
      status: record.status,
      retryAfterMs: parseRetryAfter(headers),
      secrets,
    });
  }
  // AWS SDK v3: $metadata.httpStatusCode, and $retryable for throttling.
  const awsStatus = record.$metadata?.httpStatusCode;
  if (awsStatus !== undefined || record.$retryable !== undefined) {
    const rawHeaders = record.$response?.headers ?? {};
    const headers = { get: (key: string) => rawHeaders[key] ?? rawHeaders[key.toLowerCase()] ?? null };
    const throttled = record.$retryable !== undefined || /Throttling|TooManyRequests/i.test(name);
    return new ProviderError(
      connection.provider,
      `${name}${awsStatus ? ` (HTTP ${awsStatus})` : ''}: ${error.message}`,
      {
        ...(awsStatus === undefined ? {} : { status: awsStatus }),
        ...(throttled ? { retryable: true } : {}),
        retryAfterMs: parseRetryAfter(headers),
        secrets,
      },
    );
  }
  return new ProviderError(connection.provider, error.message, { secrets });
}

function isNodeNetworkError(error: Error): boolean {
  const code = (error as { code?: unknown }).code;
  return (
    typeof code === 'string' &&
    ['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EPIPE', 'UND_ERR_SOCKET'].includes(
      code,
    )
  );
}
