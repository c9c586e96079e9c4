import { describe, expect, it } from 'vitest';
import { isServiceError } from '../errors.js';
import { ProviderError, parseRetryAfter, summariseErrorBody } from './errors.js';
import { redactSecrets } from './redact.js';

const headers = (values: Record<string, string>) => new Headers(values);

describe('parseRetryAfter', () => {
  it('reads seconds, HTTP dates and retry-after-ms', () => {
    expect(parseRetryAfter(headers({ 'retry-after': '3' }))).toBe(3_000);
    expect(parseRetryAfter(headers({ 'retry-after': '0.5' }))).toBe(500);
    expect(parseRetryAfter(headers({ 'retry-after-ms': '250', 'retry-after': '9' }))).toBe(250);
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter(headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:07 GMT' }), now)).toBe(7_000);
  });

  it('ignores absent or unreadable values', () => {
    expect(parseRetryAfter(headers({}))).toBeUndefined();
    expect(parseRetryAfter(headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });
});

describe('ProviderError', () => {
  it('is a provider_error ServiceError (HTTP 502) and classifies retryable statuses', () => {
    const error = new ProviderError('openai', 'HTTP 429: slow down', { status: 429 });
    expect(isServiceError(error)).toBe(true);
    expect(error.code).toBe('provider_error');
    expect(error.status).toBe(502);
    expect(error.retryable).toBe(true);
    expect(new ProviderError('openai', 'x', { status: 503 }).retryable).toBe(true);
    expect(new ProviderError('openai', 'x', { status: 400 }).retryable).toBe(false);
    expect(new ProviderError('openai', 'x', { status: 401 }).retryable).toBe(false);
    expect(new ProviderError('openai', 'x').retryable).toBe(false);
  });

  it('never keeps the secrets it was given, even in fragments', () => {
    const key = 'sk-proj-ABCDEFGHIJKLMNOPQRSTUVWX1234';
    const error = new ProviderError(
      'openai',
      `bad key ${key}; key starts ${key.slice(0, 8)} ends ${key.slice(-8)}`,
      {
        status: 401,
        secrets: [key],
      },
    );
    expect(error.message).not.toContain(key);
    expect(error.message).not.toContain(key.slice(0, 8));
    expect(error.message).not.toContain(key.slice(-8));
    expect(JSON.stringify(error.toJSON())).not.toContain('ABCDEFGH');
  });
});

describe('redactSecrets', () => {
  it('removes key-shaped values it was not told about', () => {
    const message = redactSecrets(
      'Incorrect API key provided: sk-abc*****wxyz. Authorization: Bearer abcdefgh12345678 AKIAABCDEFGHIJKLMNOP token ya29.a0AfH6 api_key=supersecretvalue hf_abcdefghijkl',
      [],
    );
    expect(message).not.toMatch(
      /sk-abc|abcdefgh12345678|AKIAABCDEFGHIJKLMNOP|ya29\.a0|supersecretvalue|hf_abcdefghijkl/,
    );
    expect(message).toContain('api_key=[redacted]');
    expect(message).toContain('Bearer [redacted]');
  });

  it('leaves ordinary text alone', () => {
    expect(redactSecrets('model text-embedding-3-small returned 3 vectors', ['unrelated-secret'])).toBe(
      'model text-embedding-3-small returned 3 vectors',
    );
    expect(redactSecrets('set the embedding_api_key option', [])).toBe('set the embedding_api_key option');
    expect(redactSecrets('{"access_token": "abcdefghijk"}', [])).toBe('{"access_token": "[redacted]"}');
  });
});

describe('summariseErrorBody', () => {
  it('prefers the message of a JSON error body', () => {
    expect(summariseErrorBody('{"error":{"message":"Rate limit reached","type":"requests"}}')).toBe(
      'Rate limit reached',
    );
    expect(summariseErrorBody('{"detail":"Not found"}')).toBe('Not found');
    expect(summariseErrorBody('upstream   connect error')).toBe('upstream connect error');
    expect(summariseErrorBody('x'.repeat(1_000)).length).toBeLessThan(310);
  });
});
