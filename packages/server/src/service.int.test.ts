import { describe, expect, it } from 'vitest';
import { multipartBody, startTestService, TEST_KEY } from './test-support/service.js';

describe('the service on PostgreSQL (DATABASE_URL)', () => {
  it('migrates, registers the configured key and serves partition and key requests', async () => {
    const url = process.env.TEST_DATABASE_URL;
    expect(url, 'TEST_DATABASE_URL is set by scripts/services global setup').toBeTruthy();
    const service = await startTestService({ database_url: url });
    try {
      expect(service.database.kind).toBe('postgresql');
      const body = multipartBody([
        { name: 'files', filename: 'a.txt', data: 'Hello from the PostgreSQL-backed service.' },
      ]);
      const partitioned = await service.app.inject({
        method: 'POST',
        url: '/general/v0/general',
        payload: body.payload,
        headers: { ...body.headers, 'service-api-key': TEST_KEY },
      });
      expect(partitioned.statusCode).toBe(200);
      const created = await service.app.inject({
        method: 'POST',
        url: '/api/v1/keys',
        payload: { name: 'pg' },
        headers: { 'service-api-key': TEST_KEY },
      });
      expect(created.statusCode).toBe(201);
    } finally {
      await service.stop();
    }
  });
});
