import { run, ServicesError } from './process.js';

/**
 * Debian packages a server needs (PostgreSQL, nginx, openssl, acl). scripts/provision installs the whole
 * list in scripts/apt-packages.txt; this covers `up` on a machine where provision has not run yet.
 */

async function isInstalled(pkg: string): Promise<boolean> {
  try {
    // dpkg-query's own ${Status} placeholder, not a template string.
    const { stdout } = await run('dpkg-query', ['-W', '-f=$' + '{Status}', pkg]);
    return stdout.includes('install ok installed');
  } catch {
    return false;
  }
}

// dpkg takes a system-wide lock: servers installing in parallel must queue their apt-get calls.
let queue: Promise<unknown> = Promise.resolve();

export function ensureDebianPackages(packages: readonly string[], log: (m: string) => void): Promise<void> {
  const next = queue.then(() => installMissing(packages, log));
  queue = next.catch(() => undefined);
  return next;
}

async function installMissing(packages: readonly string[], log: (m: string) => void): Promise<void> {
  const missing: string[] = [];
  for (const pkg of packages) if (!(await isInstalled(pkg))) missing.push(pkg);
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0) {
    throw new ServicesError(
      `missing Debian packages: ${missing.join(' ')}; run scripts/provision as root (or apt-get install them)`,
    );
  }
  log(`installing Debian packages: ${missing.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = () =>
    run('apt-get', ['install', '-y', '-q', '--no-install-recommends', ...missing], {
      env,
      timeoutMs: 15 * 60_000,
    });
  try {
    await install();
  } catch {
    // Usually stale or absent package lists; refresh once and try again.
    await run('apt-get', ['update', '-q'], { env, timeoutMs: 10 * 60_000 });
    await install();
  }
}
