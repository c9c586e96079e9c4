import { afterEach, describe, expect, it } from 'vitest';
import { type ProviderServer, startProviderServer } from '../test-support/provider-servers/server.js';
import { ProviderError } from './errors.js';
import { type ProviderConnection, requestJson } from './http.js';
import { withRetries } from './retry.js';

const SECRET = 'key-0123456789abcdefghij';
let server: ProviderServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const connection = (timeoutMs = 2_000): ProviderConnection => ({
  provider: 'test',
  timeoutMs,
  secrets: [SECRET],
});

async function echoServer(): Promise<ProviderServer> {
  return startProviderServer([
    { method: 'POST', path: /^\/echo$/, handle: (request) => ({ body: { got: request.body } }) },
  ]);
}

describe('requestJson', () => {
  it('sends JSON with the given headers and parses the answer', async () => {
    server = await echoServer();
    const answer = await requestJson<{ got: unknown }>(connection(), {
      url: `${server.url}/echo`,
      headers: { authorization: `Bearer ${SECRET}` },
      body: { a: 1 },
    });
    expect(answer.got).toEqual({ a: 1 });
    expect(server.requests[0]!.headers['content-type']).toBe('application/json');
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${SECRET}`);
  });

  it('turns 429 into a retryable error carrying Retry-After, and a retry then succeeds', async () => {
    server = await echoServer();
    server.failNext(1, {
      status: 429,
      headers: { 'retry-after': '2' },
      body: { error: { message: 'Too many requests' } },
    });
    const error = await requestJson(connection(), { url: `${server.url}/echo`, body: {} }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({
      code: 'provider_error',
      providerStatus: 429,
      retryable: true,
      retryAfterMs: 2_000,
    });
    expect((error as Error).message).toContain('Too many requests');

    server.failNext(2, { status: 503, body: 'upstream unavailable' });
    const waits: number[] = [];
    const answer = await withRetries(
      () => requestJson<{ got: unknown }>(connection(), { url: `${server!.url}/echo`, body: { b: 2 } }),
      {
        maxRetries: 3,
        initialDelayMs: 1,
        maxDelayMs: 10,
        sleep: async (ms) => {
          waits.push(ms);
        },
      },
    );
    expect(answer.got).toEqual({ b: 2 });
    expect(waits).toHaveLength(2);
  });

  it('does not retry a 400 and never puts the key in the message, even when the provider echoes it', async () => {
    server = await echoServer();
    server.failNext(1, { status: 400, body: { error: { message: `invalid key ${SECRET}` } } });
    const error = (await requestJson(connection(), {
      url: `${server.url}/echo?key=${SECRET}`,
      body: {},
    }).catch((e: unknown) => e)) as ProviderError;
    expect(error.retryable).toBe(false);
    expect(error.message).not.toContain(SECRET);
    expect(error.message).not.toContain('?key=');
    expect(error.message).toContain('/echo');
  });

  it('reports a timeout as a retryable error', async () => {
    server = await echoServer();
    server.setDelay(400);
    const error = (await requestJson(connection(50), { url: `${server.url}/echo`, body: {} }).catch(
      (e: unknown) => e,
    )) as ProviderError;
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.retryable).toBe(true);
    expect(error.message).toContain('within 50 ms');
  });

  it('reports a refused connection as retryable and a non-JSON answer as not', async () => {
    const refused = (await requestJson(connection(), { url: 'http://127.0.0.1:1/x', body: {} }).catch(
      (e: unknown) => e,
    )) as ProviderError;
    expect(refused.retryable).toBe(true);
    expect(refused.message).toContain('could not reach');

    server = await startProviderServer([
      { method: 'POST', path: /^\/html$/, handle: () => ({ body: '<html>oops</html>' }) },
    ]);
    const junk = (await requestJson(connection(), { url: `${server.url}/html`, body: {} }).catch(
      (e: unknown) => e,
    )) as ProviderError;
    expect(junk.retryable).toBe(false);
    expect(junk.message).toContain('not JSON');
  });
});
