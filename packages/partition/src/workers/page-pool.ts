import { availableParallelism } from 'node:os';
import Tinypool from 'tinypool';

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
    filename: workerEntry(),
    minThreads: 0,
    maxThreads: pagePoolSize(),
    idleTimeout: IDLE_MS,
  });
  return pool;
}

/**
 * The worker module: the compiled .js beside this file, or, when running from TypeScript sources
 * (tests, tsx), a small bootstrap that loads the .ts worker through tsx's `tsImport` (loader flags in
 * a worker's execArgv do not apply to its entry module on Node 20).
 */
function workerEntry(): string {
  if (!import.meta.url.endsWith('.ts')) return new URL('./pdf-page-worker.js', import.meta.url).href;
  const worker = new URL('./pdf-page-worker.ts', import.meta.url).href;
  const tsx = import.meta.resolve('tsx/esm/api');
  const code = [
    `const { tsImport } = await import(${JSON.stringify(tsx)});`,
    `const worker = await tsImport(${JSON.stringify(worker)}, ${JSON.stringify(worker)});`,
    'export default worker.default;',
  ].join('\n');
  return `data:text/javascript,${encodeURIComponent(code)}`;
}

/** Stop all page workers (tests, graceful shutdown). The next task starts a new pool. */
export async function closePagePool(): Promise<void> {
  const current = pool;
  pool = undefined;
  await current?.destroy();
}
