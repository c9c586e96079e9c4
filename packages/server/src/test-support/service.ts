import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveServerConfig, type ServerConfig } from '../config.js';
import { createService, type Service } from '../service.js';

export const TEST_KEY = 'dsk_test-key-for-the-default-workspace-0123456789';

/** A service on a fresh embedded database in a temporary folder, with a known key. */
export async function startTestService(
  overrides: Partial<ServerConfig> = {},
  options: { freeMemory?: () => number } = {},
): Promise<Service & { dataDir: string; stop(): Promise<void> }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'docsvc-server-test-'));
  const config = resolveServerConfig(
    { data_dir: dataDir, api_key: TEST_KEY, log_level: 'silent', ...overrides },
    {},
  );
  const service = await createService(config, options);
  return {
    ...service,
    dataDir,
    async stop() {
      await service.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Build a multipart body for `inject` from files and fields (repeated keys allowed). */
export function multipartBody(
  parts: (
    | { name: string; value: string }
    | { name: string; filename: string; data: Uint8Array | string; contentType?: string }
  )[],
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----docsvc${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if ('filename' in part) {
      chunks.push(
        Buffer.from(
          `Content-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: ${part.contentType ?? 'application/octet-stream'}\r\n\r\n`,
        ),
      );
      chunks.push(Buffer.from(part.data));
    } else {
      chunks.push(Buffer.from(`Content-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}`));
    }
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
