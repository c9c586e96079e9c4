import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProcessResult, spawnSource } from '../../../../scripts/lib/source-process.js';
import { resolveServerConfig } from '../config.js';
import { createService } from '../service.js';

const entry = join(dirname(fileURLToPath(import.meta.url)), 'main.ts');
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'docsvc-server-cli-'));
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

function serverCli(args: string[]): Promise<ProcessResult> {
  const env = { ...process.env, SERVICE_API_KEY: '', SERVICE_SECRET_KEY: '', DATABASE_URL: '' };
  return spawnSource(entry, args, { env }).result;
}

const config = () => resolveServerConfig({ data_dir: dataDir, log_level: 'silent' }, {});

describe('service-server operator commands and first start', { timeout: 240_000 }, () => {
  it('creates the default workspace and one key on the very first start only', async () => {
    const first = await createService(config());
    const initialKey = first.initialKey;
    expect(initialKey).toMatch(/^dsk_/);
    await first.close();
    const second = await createService(config());
    expect(second.initialKey).toBeUndefined();
    expect(await second.keys.authenticate(initialKey!)).toMatchObject({ revoked: false });
    await second.close();
  });

  it('keys create prints a key of the named workspace that the server then accepts; list and revoke', async () => {
    const created = await serverCli([
      'keys',
      'create',
      '--workspace',
      'research',
      '--name',
      'ci',
      '--data-dir',
      dataDir,
    ]);
    expect(created.code).toBe(0);
    const key = created.stdout.trim();
    expect(key).toMatch(/^dsk_[A-Za-z0-9_-]{43}$/);

    const listed = await serverCli(['keys', 'list', '--workspace', 'research', '--data-dir', dataDir]);
    expect(listed.code).toBe(0);
    const id = listed.stdout.split(/\s+/)[0]!;
    expect(listed.stdout).toContain('ci');
    expect(listed.stdout).not.toContain(key);

    const service = await createService(config());
    try {
      const research = await service.keys.findWorkspace('research');
      expect(await service.keys.authenticate(key)).toMatchObject({
        workspace_id: research!.id,
        revoked: false,
      });
    } finally {
      await service.close();
    }

    const revoked = await serverCli([
      'keys',
      'revoke',
      '--workspace',
      'research',
      '--id',
      id,
      '--data-dir',
      dataDir,
    ]);
    expect(revoked.code).toBe(0);
    const missing = await serverCli(['keys', 'list', '--workspace', 'nowhere', '--data-dir', dataDir]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/no workspace nowhere/);
  });
});
