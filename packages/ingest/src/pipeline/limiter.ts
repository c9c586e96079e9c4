/**
 * Bounded concurrency: `run` waits for a free slot, so a producer that awaits it never gets more than
 * `size` tasks ahead. This is what keeps memory flat however many records a source lists.
 */
export class Limiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly size: number) {}

  /** Start `task` as soon as a slot is free; resolves when it has STARTED (not finished). */
  async run(task: () => Promise<void>): Promise<void> {
    if (this.active >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    const promise = task().finally(() => {
      this.active--;
      this.running.delete(promise);
      this.waiting.shift()?.();
    });
    this.running.add(promise);
  }

  /** Wait for every started task to finish. */
  async drain(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }
}
