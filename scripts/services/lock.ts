import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ServicesError, sleep } from './process.js';

/**
 * A folder lock around `up` and `down`: a developer's `npm run services -- up` and a test run's global
 * set-up may start at the same moment, and must not both start engine_a. A lock whose owner process
 * has died is taken over.
 */
export async function withLock<T>(
  lockDir: string,
  work: () => Promise<T>,
  timeoutMs = 15 * 60_000,
): Promise<T> {
  mkdirSync(dirname(lockDir), { recursive: true });
  const deadline = Date.now() + timeoutMs;
  let announced = false;
  for (;;) {
    try {
      mkdirSync(lockDir);
      writeFileSync(join(lockDir, 'pid'), String(process.pid));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = lockOwner(lockDir);
      if (owner !== undefined && !alive(owner)) {
        rmSync(lockDir, { recursive: true, force: true });
        continue;
      }
      if (Date.now() > deadline) {
        throw new ServicesError(`another process (${owner ?? 'unknown'}) holds ${lockDir}; gave up waiting`);
      }
      if (!announced) {
        process.stderr.write(`services: waiting for process ${owner ?? '?'} (holds ${lockDir})\n`);
        announced = true;
      }
      await sleep(500);
    }
  }
  try {
    return await work();
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}

function lockOwner(lockDir: string): number | undefined {
  try {
    const pid = Number(readFileSync(join(lockDir, 'pid'), 'utf8'));
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    // The owner has made the folder but not yet written its pid: treat it as alive.
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
