import type { SearchEngineDialect } from './dialect.js';
import type { IndexLayout } from './mapping.js';
import { type RetryPolicy, withRetries } from './retry.js';
import { type SearchHit, scanIndex } from './scan.js';
import { type EngineTransport, indexPath } from './transport.js';

/**
 * Finds the documents a record already has in the index, so that the ones the new version no longer
 * produces can be deleted after the new version is written (no `_delete_by_query`: not every engine build
 * has it, and a query-time delete cannot spare the new documents).
 *
 * SPEC 2.7 maps `record_id` as `text`, on which a `term` query with the whole id finds nothing (the value
 * was split into words). The query is therefore:
 * - a `term` query when the mapping has an exact field (`record_id` as keyword, or a keyword sub-field the
 *   id fits in);
 * - otherwise a `match_phrase` query, whose hits are checked against the stored `record_id` (a phrase
 *   also matches ids that contain it: `/a/b.txt` inside `/x/a/b.txt`).
 */

export interface RecordLookup {
  index: string;
  recordId: string;
  layout: IndexLayout | undefined;
  retry: RetryPolicy;
  signal?: AbortSignal | undefined;
}

/** Most records fit one plain search (the engines' default result window is 10 000). */
const SINGLE_SEARCH_LIMIT = 10_000;

interface CountedAnswer {
  hits: { total?: { value: number } | number; hits: SearchHit[] };
}

export async function existingRecordDocumentIds(
  transport: EngineTransport,
  dialect: SearchEngineDialect,
  lookup: RecordLookup,
): Promise<string[]> {
  const termField = lookup.layout?.recordIdTermField;
  const exact = termField !== undefined && [...lookup.recordId].length <= termField.ignoreAbove;
  const query = exact
    ? { term: { [termField.name]: lookup.recordId } }
    : { match_phrase: { record_id: lookup.recordId } };
  const source = exact ? false : ['record_id'];
  const belongs = (hit: SearchHit) => exact || hit._source?.record_id === lookup.recordId;

  const { body: answer } = await withRetries(
    () =>
      transport.request<CountedAnswer>(
        {
          method: 'POST',
          path: indexPath(lookup.index, '_search'),
          body: { size: SINGLE_SEARCH_LIMIT, query, _source: source, track_total_hits: true },
        },
        { signal: lookup.signal },
      ),
    lookup.retry,
    lookup.signal,
  );
  const total = answer.hits.total;
  const totalCount = typeof total === 'number' ? total : (total?.value ?? 0);
  if (totalCount <= answer.hits.hits.length) return answer.hits.hits.filter(belongs).map((hit) => hit._id);

  const ids: string[] = [];
  for await (const page of scanIndex(transport, dialect, {
    index: lookup.index,
    query,
    pageSize: 5_000,
    source,
    shards: lookup.layout?.shards,
    retry: lookup.retry,
    signal: lookup.signal,
  })) {
    for (const hit of page) if (belongs(hit)) ids.push(hit._id);
  }
  return ids;
}
