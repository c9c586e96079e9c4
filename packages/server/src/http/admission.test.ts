import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipartBody, startTestService, TEST_KEY } from '../test-support/service.js';

let service: Awaited<ReturnType<typeof startTestService>>;
let port: number;

beforeAll(async () => {
  service = await startTestService({ max_concurrent_requests: 1, max_queued_requests: 4 });
  const url = new URL(await service.app.listen({ host: '127.0.0.1', port: 0 }));
  port = Number(url.port);
});
afterAll(async () => {
  await service.stop();
});

/** Send the headers and part of a multipart body, then vanish, as a client killed mid-upload does. */
function abandonedUpload(): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      const body = multipartBody([{ name: 'files', filename: 'a.txt', data: 'x'.repeat(100_000) }]);
      socket.write(
        `POST /general/v0/general HTTP/1.1\r\nhost: 127.0.0.1\r\nservice-api-key: ${TEST_KEY}\r\n` +
          `content-type: ${body.headers['content-type']}\r\ncontent-length: ${body.payload.length}\r\n\r\n`,
      );
      socket.write(body.payload.subarray(0, 1_000));
      setTimeout(() => {
        socket.destroy();
        resolve();
      }, 300);
    });
  });
}

describe('admission slots', () => {
  it('are given back when clients disconnect mid-upload or while queued', async () => {
    await Promise.all([abandonedUpload(), abandonedUpload(), abandonedUpload()]);
    const form = new FormData();
    form.append(
      'files',
      new Blob(['Still serving after abandoned uploads.'], { type: 'text/plain' }),
      'b.txt',
    );
    const response = await fetch(`http://127.0.0.1:${port}/general/v0/general`, {
      method: 'POST',
      body: form,
      headers: { 'service-api-key': TEST_KEY },
      signal: AbortSignal.timeout(20_000),
    });
    expect(response.status).toBe(200);
  });
});
