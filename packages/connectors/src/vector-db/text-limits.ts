/**
 * Length rules of Milvus strings. Milvus checks a VARCHAR (and each VARCHAR of an ARRAY) against its
 * max_length in UTF-8 bytes (the Go server compares `len(s)`), although its documentation speaks of
 * characters; milvus-lite counts code points. Counting bytes satisfies both, so that is what we check:
 * "é" counts 2, "😀" counts 4. JSON values (JSON fields and the dynamic $meta field) are limited to
 * 65,536 bytes of serialised JSON.
 */

export const MAX_JSON_BYTES = 65_536;

export function utf8Length(value: string): number {
  return Buffer.byteLength(value, 'utf8');
}

/** True when `value` fits `maxBytes` UTF-8 bytes (cheap for the common short ASCII case). */
export function fitsUtf8(value: string, maxBytes: number): boolean {
  if (value.length * 3 <= maxBytes) return true;
  if (value.length > maxBytes) return false;
  return Buffer.byteLength(value, 'utf8') <= maxBytes;
}

/**
 * The longest prefix of `value` that fits `maxBytes` UTF-8 bytes, cut between code points: a surrogate pair
 * (an emoji, a rare CJK character) is kept whole or dropped whole, never split. A lone surrogate counts as
 * the 3 bytes of the U+FFFD it is sent as.
 */
export function truncateUtf8(value: string, maxBytes: number): string {
  if (fitsUtf8(value, maxBytes)) return value;
  let bytes = 0;
  let end = 0;
  while (end < value.length) {
    const code = value.codePointAt(end)!;
    const units = code > 0xffff ? 2 : 1;
    const size = code <= 0x7f ? 1 : code <= 0x7ff ? 2 : code <= 0xffff ? 3 : 4;
    if (bytes + size > maxBytes) break;
    bytes += size;
    end += units;
  }
  return value.slice(0, end);
}
