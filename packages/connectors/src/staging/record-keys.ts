import { createHash } from 'node:crypto';

/**
 * Destination record keys (a search document's `_id`, a primary key...). An element id alone is not a
 * key: by default it is the hash of the element text (SPEC 2.5), so equal texts in two records have equal
 * ids, and a text repeated inside one record (a running header) gives the same id twice. The key is
 * therefore derived from (record_id, element_id, occurrence):
 * - different records never collide, whatever their texts;
 * - the n-th repetition of an element id inside a record gets its own key, so no element overwrites
 *   another; the first occurrence's key does not depend on the others, so it is stable across runs;
 * - keys are deterministic, so re-running a record overwrites its rows instead of duplicating them.
 *
 * The key is 32 hex characters (128 bits of SHA-256): short enough to keep index ids small, far too long
 * to collide by chance.
 */
export function recordKey(recordId: string, elementId: string, occurrence = 0): string {
  const hash = createHash('sha256').update(recordId, 'utf8').update('\u0000').update(elementId, 'utf8');
  if (occurrence > 0) hash.update(`\u0000${occurrence}`);
  return hash.digest('hex').slice(0, 32);
}

/** The keys of one record's elements, in order, with repeated element ids told apart by occurrence. */
export function recordKeys(recordId: string, elementIds: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return elementIds.map((elementId) => {
    const occurrence = seen.get(elementId) ?? 0;
    seen.set(elementId, occurrence + 1);
    return recordKey(recordId, elementId, occurrence);
  });
}
