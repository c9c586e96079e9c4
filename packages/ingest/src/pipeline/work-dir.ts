import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { AnyOptionSet } from '@docsvc/partition';

/**
 * The work dir: step outputs cached by content (`cache/<step>/<key>.json`), downloaded copies per source
 * (`downloads/<source>/<record>`), and per source→destination ledgers of what was uploaded
 * (`ledgers/<pair>/<record>.json`). Every file is written to a temporary name and renamed, so a run
 * killed at any point leaves only complete files and the next run resumes from them.
 */
export class WorkDir {
  readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  path(...parts: string[]): string {
    return join(this.root, ...parts);
  }

  async readJson<T>(path: string): Promise<T | undefined> {
    try {
      return JSON.parse(await readFile(path, 'utf8')) as T;
    } catch {
      return undefined; // absent or unreadable (e.g. from an older format): recompute
    }
  }

  async readBytes(path: string): Promise<Uint8Array | undefined> {
    try {
      return await readFile(path);
    } catch {
      return undefined;
    }
  }

  async write(path: string, content: string | Uint8Array): Promise<void> {
    await mkdir(dirname(path), { recursive: true });
    const temporary = `${path}.${randomUUID()}.tmp`;
    try {
      await writeFile(temporary, content);
      await rename(temporary, path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }

  writeJson(path: string, value: unknown): Promise<void> {
    return this.write(path, JSON.stringify(value));
  }
}

/** Stable hash of any JSON-able value (object keys sorted), hex. */
export function stableHash(value: unknown): string {
  return createHash('sha256').update(stableStringify(value)).digest('hex');
}

export function contentHash(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

function stableStringify(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(',')}}`;
}

/**
 * A configuration without its secrets, for cache keys: changing a password must not invalidate cached
 * work, and secrets never end up on disk in a key.
 */
export function withoutSecrets(
  values: Record<string, unknown>,
  ...sets: (AnyOptionSet | undefined)[]
): Record<string, unknown> {
  const secret = new Set(
    sets.flatMap((set) => set?.fields.filter((f) => f.spec.secret).map((f) => f.name) ?? []),
  );
  return Object.fromEntries(Object.entries(values).filter(([name]) => !secret.has(name)));
}
