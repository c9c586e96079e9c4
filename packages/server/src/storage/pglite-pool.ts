import type { PGlite } from '@electric-sql/pglite';

/**
 * Kysely's PostgresDialect talks to a `pg.Pool`. PGlite is a single in-process connection, so this
 * adapter hands it out to one borrower at a time (a transaction holds it until release), which keeps
 * concurrent requests from interleaving statements inside each other's transactions.
 */
interface QueryResultLike {
  rows: unknown[];
  rowCount: number;
  command: string;
}

export class PgliteSerialPool {
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly db: PGlite) {}

  async connect() {
    let release!: () => void;
    const previous = this.queue;
    this.queue = new Promise<void>((resolve) => {
      release = resolve;
    });
    await previous;
    const db = this.db;
    return {
      async query(sql: string, parameters: readonly unknown[] = []): Promise<QueryResultLike> {
        const result = await db.query(sql, parameters as unknown[]);
        const command = sql.trimStart().split(/\s+/, 1)[0]?.toUpperCase() ?? '';
        return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length, command };
      },
      release() {
        release();
      },
    };
  }

  async end(): Promise<void> {
    await this.queue;
    await this.db.close();
  }
}
