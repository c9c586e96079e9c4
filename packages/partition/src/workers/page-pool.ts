import { availableParallelism } from 'node:os';
import Tinypool from 'tinypool';

/**
 * The process-wide pool of page workers (tinypool: worker threads, per-task abort, idle shutdown).
 * Threads start on demand, up to one per CPU core, and exit after a few idle seconds, so a process that
 * only partitions small documents in its own thread never starts any.
 *
 * When running from TypeScript sources (tests, tsx), workers load the .ts worker file through tsx.
 */

/** Idle workers exit after this long, releasing their PDFium memory. */
const IDLE_MS = 5_000;

let pool: Tinypool | undefined;

export function pagePoolSize(): number {
  return Math.max(1, availableParallelism());
}

export function getPagePool(): Tinypool {
  if (pool) return pool;
  const fromSource = import.meta.url.endsWith('.ts');
  const filename = new URL(`./pdf-page-worker.${fromSource ? 'ts' : 'js'}`, import.meta.url).href;
  const execArgv = fromSource ? withTsx(process.execArgv) : process.execArgv;
  pool = new Tinypool({
    filename,
    minThreads: 0,
    maxThreads: pagePoolSize(),
    idleTimeout: IDLE_MS,
    execArgv,
  });
  return pool;
}

function withTsx(argv: readonly string[]): string[] {
  const joined = argv.join(' ');
  return joined.includes('tsx') ? [...argv] : [...argv, '--import', 'tsx'];
}

/** Stop all page workers (tests, graceful shutdown). The next task starts a new pool. */
export async function closePagePool(): Promise<void> {
  const current = pool;
  pool = undefined;
  await current?.destroy();
}
