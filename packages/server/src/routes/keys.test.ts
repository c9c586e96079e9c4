import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_WORKSPACE } from '../keys/store.js';
import { startTestService, TEST_KEY } from '../test-support/service.js';

let service: Awaited<ReturnType<typeof startTestService>>;
let otherWorkspaceKey: string;

beforeAll(async () => {
  service = await startTestService();
  const other = await service.keys.ensureWorkspace('other');
  otherWorkspaceKey = (await service.keys.createKey(other.id, 'other')).key;
});
afterAll(async () => {
  await service.stop();
});

const call = (
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  key: string | null = TEST_KEY,
  payload?: object,
) =>
  service.app.inject({
    method,
    url,
    headers: key ? { 'service-api-key': key } : {},
    ...(payload ? { payload } : {}),
  });

describe('API key management', () => {
  it('creates, lists, reveals and revokes keys of the caller workspace', async () => {
    const created = await call('POST', '/api/v1/keys', TEST_KEY, { name: 'ui' });
    expect(created.statusCode).toBe(201);
    const { id, key } = created.json() as { id: string; key: string };
    const listed = (await call('GET', '/api/v1/keys')).json() as { keys: { id: string; name: string }[] };
    expect(listed.keys.map((k) => k.name)).toEqual(['SERVICE_API_KEY', 'ui']);
    expect(JSON.stringify(listed)).not.toContain(key);
    expect((await call('POST', `/api/v1/keys/${id}/reveal`)).json()).toEqual({ id, key });
    expect((await call('GET', '/api/v1/keys', key)).statusCode).toBe(200);
    expect((await call('DELETE', `/api/v1/keys/${id}`)).json().revoked_at).not.toBeNull();
    const revoked = await call('GET', '/api/v1/keys', key);
    expect(revoked.statusCode).toBe(403);
    expect(revoked.json()).toEqual({ detail: 'API key has been revoked.' });
  });

  it('never shows one workspace the keys of another', async () => {
    const mine = (await call('GET', '/api/v1/keys')).json() as { keys: { id: string }[] };
    const theirs = (await call('GET', '/api/v1/keys', otherWorkspaceKey)).json() as {
      keys: { id: string; name: string }[];
    };
    expect(theirs.keys.map((k) => k.name)).toEqual(['other']);
    for (const key of mine.keys) {
      expect((await call('POST', `/api/v1/keys/${key.id}/reveal`, otherWorkspaceKey)).statusCode).toBe(404);
      expect((await call('DELETE', `/api/v1/keys/${key.id}`, otherWorkspaceKey)).statusCode).toBe(404);
    }
    const workspace = await service.keys.findWorkspace(DEFAULT_WORKSPACE);
    expect(workspace).toBeDefined();
  });

  it('answers 401 without a key or with an unknown one, never echoing it', async () => {
    const missing = await call('GET', '/api/v1/keys', null);
    expect(missing.statusCode).toBe(401);
    expect(missing.json().detail).toMatch(/missing/);
    const wrong = await call('GET', '/api/v1/keys', 'dsk_not-a-real-key-12345');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).not.toContain('not-a-real-key');
  });

  it('validates bodies (422/400) and unknown ids (404)', async () => {
    expect((await call('POST', '/api/v1/keys', TEST_KEY, {})).statusCode).toBe(400);
    expect((await call('GET', '/api/v1/keys/nope')).statusCode).toBe(404);
  });
});

describe('unexpected errors', () => {
  it('answer 500 with the request id and never the message or a stack trace', async () => {
    const own = await startTestService();
    try {
      own.app.get('/boom', async () => {
        throw new Error('database password is hunter2');
      });
      const response = await own.app.inject({ method: 'GET', url: '/boom' });
      expect(response.statusCode).toBe(500);
      expect(response.json().detail).toMatch(/^Internal server error \(request .+\)\.$/);
      expect(response.body).not.toContain('hunter2');
      expect(response.body).not.toContain('at ');
    } finally {
      await own.stop();
    }
  });
});

describe('public routes', () => {
  it('serves the health check, the OpenAPI document and the docs page without a key', async () => {
    expect((await call('GET', '/healthcheck', null)).json()).toEqual({
      healthcheck: 'HEALTHCHECK STATUS: EVERYTHING OK!',
    });
    const openapi = (await call('GET', '/general/openapi.json', null)).json();
    const form = openapi.paths['/general/v0/general'].post.requestBody.content['multipart/form-data'].schema;
    expect(form.properties.strategy.enum).toContain('hi_res');
    expect(form.properties.files.items.format).toBe('binary');
    expect(openapi.components.securitySchemes.ApiKeyAuth.name).toBe('service-api-key');
    const docs = await call('GET', '/general/docs', null);
    expect([200, 302]).toContain(docs.statusCode);
    expect((await call('GET', '/nowhere', null)).json()).toEqual({ detail: 'Not Found' });
  });

  it('allows the service-api-key header in CORS preflight for configured origins', async () => {
    const cors = await startTestService({ cors_origins: ['https://ui.example'] });
    try {
      const response = await cors.app.inject({
        method: 'OPTIONS',
        url: '/general/v0/general',
        headers: {
          origin: 'https://ui.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'service-api-key',
        },
      });
      expect(response.headers['access-control-allow-origin']).toBe('https://ui.example');
      expect(String(response.headers['access-control-allow-headers'])).toContain('service-api-key');
    } finally {
      await cors.stop();
    }
  });
});
