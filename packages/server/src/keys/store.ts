import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { ApiKeyRow, Database, WorkspaceRow } from '../storage/schema.js';
import { generateApiKey, hashApiKey, keyDisplayPrefix, type SecretBox } from './crypto.js';

export const DEFAULT_ORGANISATION = 'default';
export const DEFAULT_WORKSPACE = 'default';

/** What the API returns for a key: never the key itself (reveal is a separate, explicit call). */
export interface ApiKeyInfo {
  id: string;
  name: string;
  workspace_id: string;
  prefix: string;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

export interface AuthenticatedKey {
  id: string;
  workspace_id: string;
  revoked: boolean;
}

/** How often last_used_at is written for a busy key (a write per request would cost more than the request). */
const LAST_USED_RESOLUTION_MS = 60_000;
/**
 * How long a successful key look-up is reused. Small requests cost about as much as the look-up itself;
 * revoking in this process takes effect at once, a revocation made by another server process within
 * this delay.
 */
const AUTH_CACHE_MS = 5_000;
/** Bound on remembered keys, so random invalid keys cannot grow memory (only found keys are cached). */
const AUTH_CACHE_ENTRIES = 10_000;

/**
 * Organisations → workspaces → API keys. Each key belongs to exactly one workspace (SPEC 5.2); every
 * query that touches a key is scoped by workspace, so a key never sees another workspace's keys.
 */
export class KeyStore {
  private readonly lastUsedWritten = new Map<string, number>();
  private readonly recent = new Map<string, { key: AuthenticatedKey; until: number }>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly box: SecretBox,
  ) {}

  async ensureOrganisation(name: string): Promise<string> {
    const existing = await this.db
      .selectFrom('organisations')
      .select('id')
      .where('name', '=', name)
      .executeTakeFirst();
    if (existing) return existing.id;
    const id = randomUUID();
    await this.db
      .insertInto('organisations')
      .values({ id, name })
      .onConflict((c) => c.column('name').doNothing())
      .execute();
    const row = await this.db
      .selectFrom('organisations')
      .select('id')
      .where('name', '=', name)
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async ensureWorkspace(name: string, organisation = DEFAULT_ORGANISATION): Promise<WorkspaceRow> {
    const organisationId = await this.ensureOrganisation(organisation);
    const find = () =>
      this.db
        .selectFrom('workspaces')
        .selectAll()
        .where('organisation_id', '=', organisationId)
        .where('name', '=', name)
        .executeTakeFirst();
    const existing = await find();
    if (existing) return existing;
    await this.db
      .insertInto('workspaces')
      .values({ id: randomUUID(), organisation_id: organisationId, name })
      .onConflict((c) => c.columns(['organisation_id', 'name']).doNothing())
      .execute();
    return (await find())!;
  }

  async findWorkspace(name: string, organisation = DEFAULT_ORGANISATION): Promise<WorkspaceRow | undefined> {
    return this.db
      .selectFrom('workspaces')
      .innerJoin('organisations', 'organisations.id', 'workspaces.organisation_id')
      .selectAll('workspaces')
      .where('organisations.name', '=', organisation)
      .where('workspaces.name', '=', name)
      .executeTakeFirst();
  }

  async countWorkspaces(): Promise<number> {
    const row = await this.db
      .selectFrom('workspaces')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Create a key in a workspace; `key` lets an operator register a given key (SERVICE_API_KEY). */
  async createKey(
    workspaceId: string,
    name: string,
    key = generateApiKey(),
  ): Promise<{ key: string; info: ApiKeyInfo }> {
    const row = await this.db
      .insertInto('api_keys')
      .values({
        id: randomUUID(),
        workspace_id: workspaceId,
        name,
        key_hash: hashApiKey(key),
        key_encrypted: this.box.encrypt(key),
        key_prefix: keyDisplayPrefix(key),
        revoked_at: null,
        last_used_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { key, info: toInfo(row) };
  }

  /** Register `key` for the workspace unless it is registered already (idempotent start-up). */
  async ensureKey(workspaceId: string, name: string, key: string): Promise<void> {
    const existing = await this.db
      .selectFrom('api_keys')
      .select('id')
      .where('key_hash', '=', hashApiKey(key))
      .executeTakeFirst();
    if (!existing) await this.createKey(workspaceId, name, key);
  }

  /** Find a presented key; records its use. Undefined when unknown. */
  async authenticate(key: string): Promise<AuthenticatedKey | undefined> {
    const hash = hashApiKey(key);
    const cached = this.recent.get(hash);
    if (cached && cached.until > Date.now()) return cached.key;
    const row = await this.db
      .selectFrom('api_keys')
      .select(['id', 'workspace_id', 'revoked_at'])
      .where('key_hash', '=', hash)
      .executeTakeFirst();
    if (!row) return undefined;
    if (!row.revoked_at) await this.touch(row.id);
    const found = { id: row.id, workspace_id: row.workspace_id, revoked: row.revoked_at !== null };
    if (this.recent.size >= AUTH_CACHE_ENTRIES) this.recent.clear();
    this.recent.set(hash, { key: found, until: Date.now() + AUTH_CACHE_MS });
    return found;
  }

  private async touch(id: string): Promise<void> {
    const now = Date.now();
    if (now - (this.lastUsedWritten.get(id) ?? 0) < LAST_USED_RESOLUTION_MS) return;
    this.lastUsedWritten.set(id, now);
    await this.db
      .updateTable('api_keys')
      .set({ last_used_at: new Date(now) })
      .where('id', '=', id)
      .execute();
  }

  async listKeys(workspaceId: string): Promise<ApiKeyInfo[]> {
    const rows = await this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .orderBy('seq')
      .execute();
    return rows.map(toInfo);
  }

  async getKey(workspaceId: string, id: string): Promise<ApiKeyInfo | undefined> {
    const row = await this.scoped(workspaceId, id);
    return row ? toInfo(row) : undefined;
  }

  /** The key itself, decrypted (SPEC 5.1: "the key can be copied again later"). */
  async revealKey(workspaceId: string, id: string): Promise<string | undefined> {
    const row = await this.scoped(workspaceId, id);
    return row ? this.box.decrypt(row.key_encrypted) : undefined;
  }

  async revokeKey(workspaceId: string, id: string): Promise<ApiKeyInfo | undefined> {
    const row = await this.db
      .updateTable('api_keys')
      .set({ revoked_at: new Date() })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
    // Forget cached look-ups after the write, so none can outlive the revocation in this process.
    for (const [hash, entry] of this.recent) if (entry.key.id === id) this.recent.delete(hash);
    if (row) return toInfo(row);
    return this.getKey(workspaceId, id);
  }

  private scoped(workspaceId: string, id: string): Promise<ApiKeyRow | undefined> {
    return this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirst();
  }
}

function iso(value: Date | string | null): string | null {
  if (value === null) return null;
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

function toInfo(row: ApiKeyRow): ApiKeyInfo {
  return {
    id: row.id,
    name: row.name,
    workspace_id: row.workspace_id,
    prefix: row.key_prefix,
    created_at: iso(row.created_at)!,
    revoked_at: iso(row.revoked_at),
    last_used_at: iso(row.last_used_at),
  };
}
