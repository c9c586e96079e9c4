import { describe, expect, it } from 'vitest';
import type { OpenDatabase } from '../storage/database.js';
import { SecretBox } from './crypto.js';
import { KeyStore } from './store.js';

/**
 * The key store's behaviour, run against every database the service supports (PGlite in the unit
 * suite, PostgreSQL in the integration suite): one spec, several backends.
 */
export function describeKeyStore(name: string, open: () => Promise<OpenDatabase>): void {
  describe(`KeyStore on ${name}`, () => {
    const withStore = async (test: (keys: KeyStore) => Promise<void>) => {
      const database = await open();
      try {
        await test(new KeyStore(database.db, new SecretBox('a-master-key-for-tests-only')));
      } finally {
        await database.close();
      }
    };

    it('creates workspaces idempotently and keys that authenticate to their workspace', () =>
      withStore(async (keys) => {
        const suffix = Math.random().toString(36).slice(2);
        const a = await keys.ensureWorkspace(`alpha-${suffix}`);
        expect((await keys.ensureWorkspace(`alpha-${suffix}`)).id).toBe(a.id);
        const b = await keys.ensureWorkspace(`beta-${suffix}`, `org-${suffix}`);
        const { key, info } = await keys.createKey(a.id, 'ci');
        expect(key).toMatch(/^dsk_[A-Za-z0-9_-]{43}$/);
        expect(info.prefix).toBe(key.slice(0, 10));
        expect(await keys.authenticate(key)).toEqual({ id: info.id, workspace_id: a.id, revoked: false });
        expect(await keys.authenticate(`${key}x`)).toBeUndefined();
        expect((await keys.listKeys(b.id)).map((k) => k.id)).not.toContain(info.id);
      }));

    it('stores keys encrypted, reveals them to their own workspace only, and revokes', () =>
      withStore(async (keys) => {
        const suffix = Math.random().toString(36).slice(2);
        const a = await keys.ensureWorkspace(`a-${suffix}`);
        const b = await keys.ensureWorkspace(`b-${suffix}`);
        const { key, info } = await keys.createKey(a.id, 'reveal me');
        expect(await keys.revealKey(a.id, info.id)).toBe(key);
        expect(await keys.revealKey(b.id, info.id)).toBeUndefined();
        expect(await keys.revokeKey(b.id, info.id)).toBeUndefined();
        const revoked = await keys.revokeKey(a.id, info.id);
        expect(revoked?.revoked_at).not.toBeNull();
        expect((await keys.authenticate(key))?.revoked).toBe(true);
      }));

    it('records when a key was last used', () =>
      withStore(async (keys) => {
        const workspace = await keys.ensureWorkspace(`used-${Math.random().toString(36).slice(2)}`);
        const { key, info } = await keys.createKey(workspace.id, 'used');
        expect(info.last_used_at).toBeNull();
        await keys.authenticate(key);
        expect((await keys.getKey(workspace.id, info.id))?.last_used_at).not.toBeNull();
      }));

    it('registers a given key once (SERVICE_API_KEY at every start)', () =>
      withStore(async (keys) => {
        const workspace = await keys.ensureWorkspace(`given-${Math.random().toString(36).slice(2)}`);
        const given = `dsk_given_${Math.random().toString(36).slice(2)}`;
        await keys.ensureKey(workspace.id, 'SERVICE_API_KEY', given);
        await keys.ensureKey(workspace.id, 'SERVICE_API_KEY', given);
        expect((await keys.listKeys(workspace.id)).filter((k) => k.name === 'SERVICE_API_KEY')).toHaveLength(
          1,
        );
      }));
  });
}
