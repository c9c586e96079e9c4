import type { MilvusClient, RowData } from '@zilliz/milvus2-sdk-node';
import { ConnectorError } from '../errors.js';
import { CONNECTOR, ensureSuccess, toConnectorError, type VectorDbConnection } from './client.js';
import { quoteFilterString, recordFilter } from './filter.js';
import { type CollectionLayout, PRIMARY_FIELD, RECORD_ID_FIELD } from './layout.js';
import type { VectorDbRow } from './stage.js';
import { type MutationAnswer, sendUpsert } from './wire.js';

/**
 * Replacing a record's rows with no loss window and no orphans:
 * 1. upsert the new rows (their keys are stable, so rows that did not change are overwritten in place);
 * 2. delete the record's rows whose keys are not among the new ones.
 * Killed after 1 has started, the collection holds every old row (a row whose key is reused holds the
 * same element, re-written) plus some new ones; killed during 2, the new version complete plus some
 * orphans. Either way the next run ends with exactly the new version.
 */

/** Upper bound of one request's estimated size; Milvus accepts 64 MiB by default. */
export const MAX_BATCH_BYTES = 16 * 1024 * 1024;

/** Keys per delete expression; a larger record is deleted in key ranges (see orphanFilters). */
export const MAX_KEYS_PER_FILTER = 5000;

/** Rows → request batches of at most `batchSize` rows and about MAX_BATCH_BYTES. */
export function batchRows(
  rows: readonly VectorDbRow[],
  batchSize: number,
  maxBytes = MAX_BATCH_BYTES,
): VectorDbRow[][] {
  const batches: VectorDbRow[][] = [];
  let current: VectorDbRow[] = [];
  let bytes = 0;
  for (const row of rows) {
    const size = estimateRowBytes(row);
    if (current.length > 0 && (current.length >= batchSize || bytes + size > maxBytes)) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(row);
    bytes += size;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/** A rough wire size: strings at up to 3 bytes a unit, 4 bytes a number, some overhead per field. */
function estimateRowBytes(row: VectorDbRow): number {
  let bytes = 0;
  for (const value of Object.values(row)) {
    bytes += 8;
    if (typeof value === 'string') bytes += value.length * 3;
    else if (Array.isArray(value) && typeof value[0] === 'number') bytes += value.length * 4;
    else if (value !== null && typeof value === 'object') bytes += JSON.stringify(value).length * 3;
    else bytes += 8;
  }
  return bytes;
}

export interface UpsertTarget {
  client: MilvusClient;
  connection: VectorDbConnection;
  collection: string;
  layout: CollectionLayout;
  /** Send through the SDK's generic `upsert` instead of the direct request (see wire.ts). */
  viaSdk?: boolean;
}

export async function upsertRows(target: UpsertTarget, rows: VectorDbRow[]): Promise<void> {
  const { client, collection } = target;
  const what = `upsert of ${rows.length} rows into "${collection}" failed`;
  let answer: MutationAnswer;
  try {
    answer = target.viaSdk
      ? ((await client.upsert({
          collection_name: collection,
          data: rows as RowData[],
        })) as unknown as MutationAnswer)
      : await sendUpsert(client, target.connection, collection, target.layout, rows);
  } catch (error) {
    throw toConnectorError(error, what);
  }
  ensureSuccess(answer.status, what, 'write');
  const errors = answer.err_index?.length ?? 0;
  if (errors > 0) {
    throw new ConnectorError(
      CONNECTOR,
      'write',
      `upsert into "${collection}" refused ${errors} of ${rows.length} rows (first: ${rows[Number(answer.err_index![0])]?.element_id})`,
    );
  }
}

/** One part of the key space: keys in [from, below) other than `keys` (bounds absent = open). */
export interface KeyRange {
  from?: string;
  below?: string;
  keys: string[];
}

/**
 * Keys are well-formed strings (see keys.ts): two different ones never have the same UTF-8 bytes.
 * Cut the sorted keys to keep into ranges of at most `perFilter` keys that together cover every possible
 * key: the first range has no lower bound, the last no upper bound, each range starts at its first key.
 * Keys sort by their UTF-8 bytes, as Milvus compares strings.
 */
export function keyRanges(keep: readonly string[], perFilter = MAX_KEYS_PER_FILTER): KeyRange[] {
  const unique = [...new Set(keep)];
  // One range needs no order: the common case, and the cheap one.
  if (unique.length <= perFilter) return [{ keys: unique }];
  const keys = sortByUtf8(unique);
  const ranges: KeyRange[] = [];
  for (let start = 0; start < keys.length; start += perFilter) {
    const range: KeyRange = { keys: keys.slice(start, start + perFilter) };
    if (start > 0) range.from = keys[start]!;
    const next = keys[start + perFilter];
    if (next !== undefined) range.below = next;
    ranges.push(range);
  }
  return ranges;
}

/** Strings in the order of their UTF-8 bytes (JavaScript compares UTF-16 units, which differs above U+FFFF). */
function sortByUtf8(values: string[]): string[] {
  return values
    .map((value) => ({ value, bytes: Buffer.from(value, 'utf8') }))
    .sort((a, b) => Buffer.compare(a.bytes, b.bytes))
    .map(({ value }) => value);
}

/**
 * Filters that together select the rows of `recordId` whose key is not in `keep`. Up to
 * MAX_KEYS_PER_FILTER keys this is the single `record_id == "…" and element_id not in […]` (with no keys,
 * `record_id == "…"`); beyond, one filter per key range, so no expression grows without bound.
 */
export function orphanFilters(
  recordId: string,
  keep: readonly string[],
  perFilter = MAX_KEYS_PER_FILTER,
): string[] {
  const record = recordFilter(RECORD_ID_FIELD, recordId);
  return keyRanges(keep, perFilter).map((range) => {
    const parts = [record];
    if (range.from !== undefined) parts.push(`${PRIMARY_FIELD} >= ${quoteFilterString(range.from)}`);
    if (range.below !== undefined) parts.push(`${PRIMARY_FIELD} < ${quoteFilterString(range.below)}`);
    if (range.keys.length > 0)
      parts.push(`${PRIMARY_FIELD} not in [${range.keys.map(quoteFilterString).join(', ')}]`);
    return parts.join(' and ');
  });
}

/** Delete by filter; returns the number of rows deleted. */
export async function deleteWhere(client: MilvusClient, collection: string, filter: string): Promise<number> {
  let answer: Awaited<ReturnType<MilvusClient['delete']>>;
  try {
    // Strong consistency: the delete must see every older row of the record, even one written just now.
    answer = await client.delete({ collection_name: collection, filter, consistency_level: 'Strong' });
  } catch (error) {
    throw toConnectorError(error, `delete from "${collection}" failed`);
  }
  ensureSuccess(answer.status, `delete from "${collection}" failed`, 'write');
  return Number(answer.delete_cnt ?? 0);
}
