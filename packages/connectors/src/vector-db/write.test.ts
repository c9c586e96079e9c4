import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { batchRows, keyRanges, orphanFilters } from './write.js';

/** Characters of every UTF-8 length, and the private-use area that sorts differently in UTF-16 and UTF-8. */
const SAMPLE_CHARACTERS = fc.constantFrom('a', 'z', 'é', '€', '😀', '\ue000', '"', '\\');

function inRange(key: string, range: { from?: string; below?: string }): boolean {
  const bytes = (s: string) => Buffer.from(s, 'utf8');
  if (range.from !== undefined && Buffer.compare(bytes(key), bytes(range.from)) < 0) return false;
  if (range.below !== undefined && Buffer.compare(bytes(key), bytes(range.below)) >= 0) return false;
  return true;
}

describe('orphan filters', () => {
  it('is one filter for a normal record, and the whole record when nothing is kept', () => {
    expect(orphanFilters('r"1', ['a:1', 'b:2'])).toEqual([
      'record_id == "r\\"1" and element_id not in ["a:1", "b:2"]',
    ]);
    expect(orphanFilters('r1', [])).toEqual(['record_id == "r1"']);
  });

  it('splits a large record into ranges that select exactly the keys not kept', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ unit: SAMPLE_CHARACTERS, minLength: 1, maxLength: 6 }), { maxLength: 40 }),
        fc.array(fc.string({ unit: SAMPLE_CHARACTERS, maxLength: 6 }), { maxLength: 40 }),
        fc.integer({ min: 1, max: 7 }),
        (keep, others, perFilter) => {
          const ranges = keyRanges(keep, perFilter);
          if (ranges.some((range) => range.keys.length > perFilter)) return false;
          const kept = new Set(keep);
          // A key is deleted when some range covers it and does not list it.
          return [...keep, ...others].every(
            (key) =>
              ranges.some((range) => inRange(key, range) && !range.keys.includes(key)) === !kept.has(key),
          );
        },
      ),
      { numRuns: 150 },
    );
  });

  it('renders ranges with bounds', () => {
    const filters = orphanFilters('r', ['c', 'a', 'b'], 2);
    expect(filters).toEqual([
      'record_id == "r" and element_id < "c" and element_id not in ["a", "b"]',
      'record_id == "r" and element_id >= "c" and element_id not in ["c"]',
    ]);
  });
});

describe('batchRows', () => {
  it('cuts by row count and by size', () => {
    const rows = Array.from({ length: 7 }, (_, i) => ({ element_id: `k${i}`, text: 'x'.repeat(100) }));
    expect(batchRows(rows, 3).map((batch) => batch.length)).toEqual([3, 3, 1]);
    expect(batchRows(rows, 100, 700).map((batch) => batch.length)).toEqual([2, 2, 2, 1]);
    // A row larger than the byte cap still goes, alone.
    expect(batchRows(rows, 100, 10).map((batch) => batch.length)).toEqual([1, 1, 1, 1, 1, 1, 1]);
  });
});
