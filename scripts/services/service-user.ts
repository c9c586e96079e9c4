import { existsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { ensureDebianPackages } from './apt.js';
import { SERVICE_USER } from './config.js';
import { type RunAs, run, ServicesError } from './process.js';

/**
 * Elasticsearch and PostgreSQL refuse to run as root, and the machines here run everything as root.
 * So when this script is root, the servers run as a system account without a shell or home
 * (`docsvc`); when it is an ordinary user, they simply run as that user.
 */

let cached: RunAs | undefined;

export async function serviceUser(): Promise<RunAs> {
  if (cached !== undefined) return cached;
  if (process.getuid?.() !== 0) {
    cached = null;
    return cached;
  }
  const existing = await lookup(SERVICE_USER);
  if (existing) {
    cached = existing;
    return cached;
  }
  await run('useradd', [
    '--system',
    '--user-group',
    '--no-create-home',
    '--shell',
    '/usr/sbin/nologin',
    SERVICE_USER,
  ]);
  const created = await lookup(SERVICE_USER);
  if (!created) throw new ServicesError(`could not create the system user ${SERVICE_USER}`);
  cached = created;
  return cached;
}

async function lookup(name: string): Promise<RunAs> {
  try {
    const uid = Number((await run('id', ['-u', name])).stdout.trim());
    const gid = Number((await run('id', ['-g', name])).stdout.trim());
    return { name, uid, gid };
  } catch {
    return null;
  }
}

/** Gives the service user ownership of a folder tree it has to write (data, logs, config). */
export async function handOver(dir: string, user: RunAs): Promise<void> {
  if (!user) return;
  await run('chown', ['-R', `${user.uid}:${user.gid}`, dir]);
}

/**
 * The default cache sits under /root, which is mode 700. The service user needs to pass through the
 * folders above the cache (search permission only, not listing); an ACL entry for that one user is the
 * narrowest grant that does it.
 */
export async function ensureTraversable(dir: string, user: RunAs): Promise<void> {
  if (!user) return;
  const blocked: string[] = [];
  for (let current = dir; ; current = dirname(current)) {
    if (existsSync(current)) {
      const info = statSync(current);
      const othersMaySearch = (info.mode & 0o001) !== 0;
      if (!othersMaySearch && info.uid !== user.uid) blocked.push(current);
    }
    if (dirname(current) === current) break;
  }
  if (blocked.length === 0) return;
  await ensureDebianPackages(['acl'], (message) => process.stderr.write(`services: ${message}\n`));
  for (const folder of blocked) {
    try {
      await run('setfacl', ['-m', `u:${user.name}:x`, folder]);
    } catch (error) {
      throw new ServicesError(
        `the service user ${user.name} cannot reach ${dir}: ${folder} is closed to it and setfacl failed ` +
          `(${error instanceof Error ? error.message.split('\n')[0] : error}). Install the Debian package ` +
          `'acl' (scripts/provision does) or set DOCSVC_SERVICES_DIR to a folder other users can reach.`,
      );
    }
  }
}
