import type { ColumnType, Generated, Selectable } from 'kysely';

/** Database tables, as Kysely sees them. Migrations (migrations.ts) create exactly these. */
export interface Database {
  organisations: OrganisationTable;
  workspaces: WorkspaceTable;
  api_keys: ApiKeyTable;
}

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

export interface OrganisationTable {
  id: string;
  name: string;
  created_at: CreatedAt;
}

export interface WorkspaceTable {
  id: string;
  organisation_id: string;
  name: string;
  created_at: CreatedAt;
}

export interface ApiKeyTable {
  id: string;
  workspace_id: string;
  name: string;
  /** SHA-256 of the key: how a presented key is found. */
  key_hash: string;
  /** The key encrypted with the server master key, so it can be revealed again (SPEC 5.1). */
  key_encrypted: string;
  /** First characters of the key, shown in lists. */
  key_prefix: string;
  created_at: CreatedAt;
  revoked_at: Date | null;
  last_used_at: Date | null;
  /** Internal id used by the ordering of lists. */
  seq: Generated<number>;
}

export type ApiKeyRow = Selectable<ApiKeyTable>;
export type WorkspaceRow = Selectable<WorkspaceTable>;
