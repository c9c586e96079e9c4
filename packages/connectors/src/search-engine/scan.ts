import { ConnectorError } from '../errors.js';
import { statusOf } from './classify.js';
import type { SearchEngineDialect } from './dialect.js';
import { type RetryPolicy, withRetries } from './retry.js';
import { type EngineTransport, indexPath } from './transport.js';

/**
 * Reads every document matching a query, page by page, without holding more than one page: a point in
 * time with `search_after` (a consistent view; a failed page can be asked again), or, where the engine
 * or the credentials do not allow a point in time (400/403/404/405: older engines, some managed
 * services, keys without the privilege), a scroll. Both are closed when the consumer stops early.
 */

export interface SearchHit {
  _id: string;
  _index: string;
  _version?: number;
  _source?: Record<string, unknown>;
  sort?: unknown[];
}

interface SearchAnswer {
  pit_id?: string;
  _scroll_id?: string;
  timed_out?: boolean;
  _shards?: { failed?: number; failures?: { reason?: { type?: string; reason?: string } }[] };
  hits: { hits: SearchHit[] };
}

export interface ScanOptions {
  index: string;
  query: Record<string, unknown>;
  pageSize: number;
  /** `_source` of the search: false for ids only, a list of fields, or true for all. */
  source: boolean | string[];
  /** Ask for each hit's `_version`. */
  version?: boolean;
  /** Primary shard count, when known (the engine_b dialect picks its sort from it). */
  shards?: number | undefined;
  keepAlive?: string;
  retry: RetryPolicy;
  signal?: AbortSignal | undefined;
}

/** Statuses with which an engine says "no point in time here" rather than "this search is wrong". */
const NO_POINT_IN_TIME = new Set([400, 403, 404, 405]);

export async function* scanIndex(
  transport: EngineTransport,
  dialect: SearchEngineDialect,
  options: ScanOptions,
): AsyncGenerator<SearchHit[]> {
  const keepAlive = options.keepAlive ?? '5m';
  let pointInTime: string | undefined;
  try {
    pointInTime = await withRetries(
      () => dialect.openPointInTime(transport, options.index, keepAlive, { signal: options.signal }),
      options.retry,
      options.signal,
    );
  } catch (error) {
    const status = statusOf(error);
    if (status === undefined || !NO_POINT_IN_TIME.has(status)) throw error;
  }
  if (pointInTime === undefined) yield* scroll(transport, options, keepAlive);
  else yield* searchAfter(transport, dialect, options, keepAlive, pointInTime);
}

async function* searchAfter(
  transport: EngineTransport,
  dialect: SearchEngineDialect,
  options: ScanOptions,
  keepAlive: string,
  pointInTime: string,
): AsyncGenerator<SearchHit[]> {
  let after: unknown[] | undefined;
  try {
    for (;;) {
      const body: Record<string, unknown> = {
        size: options.pageSize,
        query: options.query,
        _source: options.source,
        version: options.version ?? false,
        track_total_hits: false,
        pit: { id: pointInTime, keep_alive: keepAlive },
        sort: dialect.pointInTimeSort(options.shards),
      };
      if (after) body.search_after = after;
      const { body: answer } = await withRetries(
        () =>
          transport.request<SearchAnswer>(
            { method: 'POST', path: '/_search', body },
            { signal: options.signal },
          ),
        options.retry,
        options.signal,
      );
      checkComplete(transport, answer, options.index);
      pointInTime = answer.pit_id ?? pointInTime;
      const hits = answer.hits.hits;
      if (hits.length > 0) yield hits;
      if (hits.length < options.pageSize) return;
      after = hits[hits.length - 1]!.sort;
    }
  } finally {
    await dialect.closePointInTime(transport, pointInTime).catch(() => {
      // The point in time expires on its own after keep_alive.
    });
  }
}

async function* scroll(
  transport: EngineTransport,
  options: ScanOptions,
  keepAlive: string,
): AsyncGenerator<SearchHit[]> {
  const { body: first } = await withRetries(
    () =>
      transport.request<SearchAnswer>(
        {
          method: 'POST',
          path: indexPath(options.index, '_search'),
          querystring: { scroll: keepAlive },
          body: {
            size: options.pageSize,
            query: options.query,
            _source: options.source,
            version: options.version ?? false,
            sort: ['_doc'],
          },
        },
        { signal: options.signal },
      ),
    options.retry,
    options.signal,
  );
  let scrollId = first._scroll_id;
  try {
    let answer = first;
    for (;;) {
      checkComplete(transport, answer, options.index);
      scrollId = answer._scroll_id ?? scrollId;
      const hits = answer.hits.hits;
      if (hits.length === 0) return;
      yield hits;
      // A scroll page is not asked twice: the server has moved on, a repeat would skip a page.
      ({ body: answer } = await transport.request<SearchAnswer>(
        { method: 'POST', path: '/_search/scroll', body: { scroll: keepAlive, scroll_id: scrollId } },
        { signal: options.signal },
      ));
    }
  } finally {
    if (scrollId) {
      await transport
        .request({ method: 'DELETE', path: '/_search/scroll', body: { scroll_id: [scrollId] } })
        .catch(() => {
          // The scroll expires on its own after keep_alive.
        });
    }
  }
}

/** A page with failed shards or a timeout is incomplete: going on would silently miss documents. */
function checkComplete(transport: EngineTransport, answer: SearchAnswer, index: string): void {
  const failed = answer._shards?.failed ?? 0;
  if (failed === 0 && !answer.timed_out) return;
  const reason = answer._shards?.failures?.[0]?.reason;
  throw new ConnectorError(
    transport.connector,
    'read',
    `${transport.connector}: searching index "${index}" returned incomplete results (` +
      (answer.timed_out
        ? 'timed out'
        : `${failed} shard(s) failed: ${reason?.type ?? ''} ${reason?.reason ?? ''}`) +
      ')',
  );
}
