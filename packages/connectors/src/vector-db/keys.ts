import { recordKeys } from '../staging/index.js';
import { fitsUtf8 } from './text-limits.js';

/**
 * Primary keys of a record's rows. SPEC 2.7 makes element_id the primary key, but an element id is not
 * unique: by default it is the hash of the element text (SPEC 2.5), equal in two records that share a
 * paragraph and repeated inside a record that repeats a header. The key written to the element_id field is
 * therefore `<element id>:<record key>`, where the record key is the shared staging key of
 * (record_id, element_id, occurrence) — 32 hex characters. So:
 * - equal texts in different records, and repeated texts in one record, never share a row;
 * - keys are the same on every run, so re-running a record upserts the same rows;
 * - the element id stays readable as the part before the colon (`element_id like "<id>:%"` finds it).
 * An element id too long for the field (the sample field is VARCHAR 200, our ids are ≤ 64 characters) is
 * replaced by the record key alone.
 */
export function primaryKeys(recordId: string, elementIds: readonly string[], maxLength: number): string[] {
  const keys = recordKeys(recordId, elementIds);
  return keys.map((key, index) => {
    // A lone surrogate would reach the server as U+FFFD; the key is written as the server will store it.
    const composite = `${wellFormed(elementIds[index]!)}:${key}`;
    return fitsUtf8(composite, maxLength) ? composite : key;
  });
}

/** The element id a primary key was derived from (the key itself when the id did not fit). */
export function elementIdOfKey(key: string): string {
  const colon = key.lastIndexOf(':');
  return colon < 0 ? key : key.slice(0, colon);
}

/** `value` with each lone surrogate replaced by U+FFFD, as UTF-8 encoding does. */
function wellFormed(value: string): string {
  return /[\ud800-\udfff]/.test(value) ? Buffer.from(value, 'utf8').toString('utf8') : value;
}
