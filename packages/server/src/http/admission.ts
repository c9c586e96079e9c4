import { freemem } from 'node:os';
import { HttpError } from './http-error.js';

/**
 * Admission control for expensive requests: at most `maxActive` run, at most `maxQueued` wait, and
 * nothing new starts while free memory is below the minimum. Over budget answers 503 with Retry-After,
 * so load turns into a clear signal for clients instead of an out-of-memory crash.
 */
export class Admission {
  private active = 0;
  private readonly queue: (() => void)[] = [];

  constructor(
    private readonly maxActive: number,
    private readonly maxQueued: number,
    private readonly freeMemoryMinimumBytes: number,
    private readonly freeMemory: () => number = freemem,
  ) {}

  /**
   * Wait for a slot; returns the function that gives it back. Throws HttpError(503) when over budget.
   * A waiter whose `signal` aborts (its client went away) leaves the queue instead of taking a slot later.
   */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    if (this.freeMemoryMinimumBytes > 0 && this.freeMemory() < this.freeMemoryMinimumBytes) {
      throw overloaded('Server is low on memory. Please try again later.');
    }
    signal?.throwIfAborted();
    if (this.active >= this.maxActive) {
      if (this.queue.length >= this.maxQueued)
        throw overloaded('Server is under heavy load. Please try again later.');
      await new Promise<void>((resolve, reject) => {
        const waiter = () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        const onAbort = () => {
          const index = this.queue.indexOf(waiter);
          if (index >= 0) this.queue.splice(index, 1);
          reject(signal?.reason);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        this.queue.push(waiter);
      });
    } else {
      this.active++;
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.queue.shift();
      if (next) next();
      else this.active--;
    };
  }

  get load(): { active: number; queued: number } {
    return { active: this.active, queued: this.queue.length };
  }
}

function overloaded(message: string): HttpError {
  return new HttpError(503, message, { 'retry-after': '5' });
}
