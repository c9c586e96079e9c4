import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSecrets } from './secrets.js';

const folder = mkdtempSync(join(tmpdir(), 'docsvc-secrets-test-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('loadSecrets', () => {
  it('makes every password once and keeps them across loads, file readable by its owner only', () => {
    const file = join(folder, 'new/secrets.json');
    const first = loadSecrets(file);
    expect(Object.values(first).every((password) => /^[\w-]{24}$/.test(password))).toBe(true);
    expect(loadSecrets(file)).toEqual(first);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('adds a password introduced later without replacing the stored ones', () => {
    const file = join(folder, 'old.json');
    const old = { engineAPassword: 'a', engineBPassword: 'b', postgresPassword: 'p' };
    writeFileSync(file, JSON.stringify(old));
    const secrets = loadSecrets(file);
    expect(secrets).toMatchObject(old);
    expect(secrets.vectorDbPassword).toMatch(/^[\w-]{24}$/);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(secrets);
  });
});
