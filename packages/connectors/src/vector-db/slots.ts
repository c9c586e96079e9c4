/**
 * At most `size` write requests in flight across all the records a destination uploads at once. With one
 * slot, requests are sent one after another in the order they asked (milvus-lite needs that: it does not
 * support concurrent writers to one collection).
 */
export class WriteSlots {
  private free: number;
  private readonly queue: (() => void)[] = [];

  constructor(size: number) {
    this.free = size;
  }

  async run<T>(request: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.queue.push(resolve));
    try {
      return await request();
    } finally {
      // Hand the slot straight to the next waiter, or give it back.
      const next = this.queue.shift();
      if (next) next();
      else this.free++;
    }
  }
}
