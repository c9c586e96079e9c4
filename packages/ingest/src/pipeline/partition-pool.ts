import { type Element, ServiceError, workerEntryUrl } from '@docsvc/partition';
import Tinypool from 'tinypool';
import type { PartitionOutcome, PartitionTask } from './partition-worker.js';

/**
 * CPU-bound partitioning on `size` worker threads (`--num-processes`), so several documents are parsed
 * at once while the main thread keeps streaming records, talking to servers and drawing progress.
 */
export class PartitionPool {
  private readonly pool: Tinypool;

  constructor(size: number) {
    const fromSources = import.meta.url.endsWith('.ts');
    this.pool = new Tinypool({
      filename: workerEntryUrl(import.meta.url, 'partition-worker'),
      minThreads: size,
      maxThreads: size,
      idleTimeout: 30_000,
      // From sources, sibling packages resolve to their TypeScript through the `source` export condition.
      execArgv: fromSources ? [...process.execArgv, '--conditions=source'] : process.execArgv,
    });
  }

  async run(task: PartitionTask, signal?: AbortSignal): Promise<Element[]> {
    const buffer = task.data.buffer;
    const transferable = buffer instanceof ArrayBuffer && task.data.byteLength === buffer.byteLength;
    const outcome = (await this.pool.run(task, {
      signal,
      transferList: transferable ? [buffer] : [],
    })) as PartitionOutcome;
    if (outcome.ok) return outcome.elements;
    throw new ServiceError(outcome.error.code, outcome.error.message, { details: outcome.error.details });
  }

  destroy(): Promise<void> {
    return this.pool.destroy();
  }
}
