import { setTimeout as sleep } from 'node:timers/promises';
import { reasonOf } from './classify.js';
import { backoffDelay, type RetryPolicy, withRetries } from './retry.js';
import type { Semaphore } from './semaphore.js';
import { type EngineTransport, indexPath } from './transport.js';

/**
 * `_bulk` writes: operations are serialised lazily into requests of at most `maxBytes` (a single larger
 * document goes alone), sent through the destination's semaphore (bounded concurrency), and retried:
 * - the whole request on 429/502/503/504 or a dropped connection (index and delete by id are idempotent);
 * - single items the engine rejected with 429 (its write queue was full), with backoff;
 * - items that failed for good (a mapping conflict, a too-large field) are reported one by one with the
 *   element they belong to and the engine's reason, never with the document itself.
 */

export interface BulkOperation {
  action: 'index' | 'delete';
  id: string;
  /** The document of an `index` operation. */
  document?: unknown;
  /** What errors name: the element id of the document. */
  label: string;
}

export interface BulkFailure {
  id: string;
  label: string;
  status: number;
  reason: string;
}

export interface BulkOptions {
  index: string;
  maxBytes: number;
  semaphore: Semaphore;
  retry: RetryPolicy;
  signal?: AbortSignal | undefined;
}

export interface BulkOutcome {
  succeeded: number;
  failures: BulkFailure[];
}

export interface Line {
  operation: BulkOperation;
  text: string;
  bytes: number;
}

export interface BulkAnswer {
  errors?: boolean;
  items?: Record<string, { status: number; error?: unknown }>[];
}

/** Smallest request a record is split into for parallel sending: smaller ones cost more than they save. */
const MIN_SPLIT_BYTES = 256 * 1024;

/** Only what is needed to tell items apart: keeps answers small on large batches. */
const FILTER_PATH = 'errors,items.*.status,items.*.error.type,items.*.error.reason';

export async function runBulk(
  transport: EngineTransport,
  operations: Iterable<BulkOperation>,
  options: BulkOptions,
): Promise<BulkOutcome> {
  const outcome: BulkOutcome = { succeeded: 0, failures: [] };
  const batches = batchesOf(operations, options.maxBytes, options.semaphore.size);
  // As many batches in flight as the semaphore allows; the rest wait in the lazily filled iterator.
  // After a request fails for good the other workers stop taking batches, and the call returns only when
  // none of its requests is still running.
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    for (let next = batches.next(); !next.done && !failure; next = batches.next()) {
      try {
        options.signal?.throwIfAborted();
        await options.semaphore.use(() => sendBatch(transport, next.value, options, outcome));
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: options.semaphore.size }, worker));
  if (failure) throw failure.error;
  return outcome;
}

/**
 * Batches of at most `maxBytes`; a record smaller than `parallel` full batches is cut into `parallel`
 * parts (none under MIN_SPLIT_BYTES), so one record's upload uses every allowed request at once instead of
 * one long request. The total is estimated from the first operation, so serialisation stays lazy.
 */
export function* batchesOf(
  operations: Iterable<BulkOperation>,
  maxBytes: number,
  parallel: number,
): Generator<Line[]> {
  const list = Array.isArray(operations) ? (operations as BulkOperation[]) : [...operations];
  let limit: number | undefined;
  let batch: Line[] = [];
  let bytes = 0;
  for (const operation of list) {
    const line = serialise(operation);
    // One operation of slack: later operations may be a few bytes longer than the first (longer ids).
    limit ??= Math.min(
      maxBytes,
      Math.max(MIN_SPLIT_BYTES, Math.ceil((line.bytes * list.length) / parallel) + line.bytes),
    );
    if (batch.length > 0 && bytes + line.bytes > limit) {
      yield batch;
      batch = [];
      bytes = 0;
    }
    batch.push(line);
    bytes += line.bytes;
  }
  if (batch.length > 0) yield batch;
}

function serialise(operation: BulkOperation): Line {
  const action = `{"${operation.action}":{"_id":${JSON.stringify(operation.id)}}}\n`;
  const text = operation.action === 'index' ? `${action}${JSON.stringify(operation.document)}\n` : action;
  return { operation, text, bytes: Buffer.byteLength(text) };
}

async function sendBatch(
  transport: EngineTransport,
  batch: Line[],
  options: BulkOptions,
  outcome: BulkOutcome,
): Promise<void> {
  let pending = batch;
  for (let attempt = 0; ; attempt++) {
    const { body: answer } = await withRetries(
      () =>
        transport.request<BulkAnswer>(
          {
            method: 'POST',
            path: indexPath(options.index, '_bulk'),
            querystring: { filter_path: FILTER_PATH },
            bulkBody: pending.map((line) => line.text).join(''),
          },
          { signal: options.signal },
        ),
      options.retry,
      options.signal,
    );
    if (!answer.errors) {
      outcome.succeeded += pending.length;
      return;
    }
    const { succeeded, throttled, failures } = sortItems(pending, answer);
    outcome.succeeded += succeeded;
    outcome.failures.push(...failures);
    if (throttled.length === 0) return;
    if (attempt >= options.retry.retries) {
      for (const line of throttled) {
        outcome.failures.push(
          failureOf(line.operation, 429, `still rejected as too many requests after ${attempt} retries`),
        );
      }
      return;
    }
    await sleep(backoffDelay(attempt, options.retry), undefined, { signal: options.signal });
    pending = throttled;
  }
}

/**
 * A `_bulk` answer with errors, item by item (answers keep the order of the request): done (a delete of
 * an already missing document counts as done), throttled (429, to send again), or failed for good.
 */
export function sortItems<L extends { operation: BulkOperation }>(
  pending: readonly L[],
  answer: BulkAnswer,
): { succeeded: number; throttled: L[]; failures: BulkFailure[] } {
  let succeeded = 0;
  const throttled: L[] = [];
  const failures: BulkFailure[] = [];
  pending.forEach((line, position) => {
    const item = Object.values(answer.items?.[position] ?? {})[0];
    const status = item?.status ?? 0;
    const ok = (status >= 200 && status < 300) || (line.operation.action === 'delete' && status === 404);
    if (ok) succeeded++;
    else if (status === 429) throttled.push(line);
    else failures.push(failureOf(line.operation, status, reasonOf({ error: item?.error })));
  });
  return { succeeded, throttled, failures };
}

function failureOf(operation: BulkOperation, status: number, reason: string): BulkFailure {
  return { id: operation.id, label: operation.label, status, reason: reason || `status ${status}` };
}
