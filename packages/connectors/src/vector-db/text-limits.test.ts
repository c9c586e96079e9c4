import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fitsUtf8, truncateUtf8, utf8Length } from './text-limits.js';

/** Characters of every UTF-8 length, a surrogate pair's halves alone, and the private-use area above them. */
const SAMPLE_CHARACTERS = fc.constantFrom('a', 'z', 'é', '€', '😀', '\ud800', '\udc00', '\ue000', '"', '\\');

describe('UTF-8 limits', () => {
  it('counts bytes: ASCII 1, é 2, € 3, an emoji 4', () => {
    expect(utf8Length('abc')).toBe(3);
    expect(utf8Length('é')).toBe(2);
    expect(utf8Length('€')).toBe(3);
    expect(utf8Length('😀')).toBe(4);
    expect(fitsUtf8('éé', 4)).toBe(true);
    expect(fitsUtf8('éé', 3)).toBe(false);
  });

  it('cuts between code points, keeping or dropping a surrogate pair whole', () => {
    expect(truncateUtf8('ab😀cd', 5)).toBe('ab');
    expect(truncateUtf8('ab😀cd', 6)).toBe('ab😀');
    expect(truncateUtf8('aé', 2)).toBe('a');
    expect(truncateUtf8('short', 10)).toBe('short');
  });

  it('always returns the longest prefix that fits, and valid text', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: SAMPLE_CHARACTERS, maxLength: 60 }),
        fc.integer({ min: 0, max: 200 }),
        (text, limit) => {
          const cut = truncateUtf8(text, limit);
          if (!text.startsWith(cut) || utf8Length(cut) > limit) return false;
          if (cut.length === text.length) return true;
          // The cut never splits a pair: it does not end between a high and a low surrogate.
          const last = cut.charCodeAt(cut.length - 1);
          const next = text.charCodeAt(cut.length);
          if (last >= 0xd800 && last <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) return false;
          // One more code point would not fit.
          return utf8Length(cut + String.fromCodePoint(text.codePointAt(cut.length)!)) > limit;
        },
      ),
      { numRuns: 200 },
    );
  });
});
