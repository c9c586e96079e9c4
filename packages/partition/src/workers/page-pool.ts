import { availableParallelism } from 'node:os';
import Tinypool from 'tinypool';
import { workerEntryUrl } from './worker-entry.js';

/**
 * The process-wide pool of page workers (tinypool: worker threads, per-task abort, idle shutdown).
 * Threads start on demand, up to one per CPU core, and exit after a few idle seconds, so a process that
 * only partitions small documents in its own thread never starts any.
 */

/** Idle workers exit after this long, releasing their PDFium memory. */
const IDLE_MS = 5_000;

let pool: Tinypool | undefined;

export function pagePoolSize(): number {
  return Math.max(1, availableParallelism());
}

export function getPagePool(): Tinypool {
  if (pool) return pool;
  pool = new Tinypool({
    filename: workerEntryUrl(import.meta.url, 'pdf-page-worker'),
    minThreads: 0,
    maxThreads: pagePoolSize(),
    idleTimeout: IDLE_MS,
  });
  return pool;
}

/** Stop all page workers (tests, graceful shutdown). The next task starts a new pool. */
export async function closePagePool(): Promise<void> {
  const current = pool;
  pool = undefined;
  await current?.destroy();
}
