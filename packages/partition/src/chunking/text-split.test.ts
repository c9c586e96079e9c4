import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { overlapTail, splitText } from './text-split.js';

const texts = (pieces: { text: string }[]) => pieces.map((piece) => piece.text);

describe('splitText', () => {
  it('returns the text as one piece when it fits', () => {
    expect(texts(splitText('short text', 20))).toEqual(['short text']);
  });

  it('splits at the last whitespace that fits, never inside a word', () => {
    const pieces = texts(splitText('alpha beta gamma delta epsilon', 12));
    expect(pieces).toEqual(['alpha beta', 'gamma delta', 'epsilon']);
  });

  it('prefers a sentence end in the second half of the window over a later space', () => {
    const text = 'The first sentence ends here. Then a second one follows on.';
    const pieces = texts(splitText(text, 40));
    expect(pieces[0]).toBe('The first sentence ends here.');
    expect(pieces[1]).toBe('Then a second one follows on.');
  });

  it('ignores a sentence end in the first half of the window (the piece would be too short)', () => {
    const text = 'Go now. and then many more words that keep going on and on';
    const pieces = texts(splitText(text, 40));
    expect(pieces[0]).toBe('Go now. and then many more words that');
  });

  it('does not take an abbreviation followed by a lower-case word or a symbol as a sentence end', () => {
    const text = 'see 28 U.S.C. § 586 and the rules e.g. below which apply here too';
    const pieces = texts(splitText(text, 40));
    expect(pieces[0]).toBe('see 28 U.S.C. § 586 and the rules e.g.');
  });

  it('prefers a blank line, then a line break, in code-like text', () => {
    const text = 'aaaa bbbb cccc dddd eeee\n\nffff\ngggg hhhh iiii';
    expect(texts(splitText(text, 40))[0]).toBe('aaaa bbbb cccc dddd eeee');
    const lines = 'aaaa bbbb cccc\ndddd eeee ffff gggg hhhh';
    expect(texts(splitText(lines, 26))[0]).toBe('aaaa bbbb cccc');
  });

  it('splits CJK text after 。', () => {
    const text = '今日は良い天気です。明日も晴れるでしょう。来週は雨が降るかもしれません。';
    const pieces = texts(splitText(text, 25));
    expect(pieces[0]).toBe('今日は良い天気です。明日も晴れるでしょう。');
  });

  it('cuts a word longer than the limit at the limit', () => {
    const pieces = texts(splitText(`${'x'.repeat(25)} tail`, 10));
    expect(pieces).toEqual(['xxxxxxxxxx', 'xxxxxxxxxx', 'xxxxx tail']);
  });

  it('carries whole words of at most `overlap` characters into the next piece', () => {
    const pieces = texts(splitText('one two three four five six seven eight nine ten', 20, 10));
    expect(pieces).toEqual([
      'one two three four',
      'three four five six',
      'five six seven eight',
      'eight nine ten',
    ]);
  });

  it('carries no overlap when the last word is longer than `overlap`', () => {
    const pieces = texts(splitText('aaa bbb ccc extraordinary ddd eee', 26, 5));
    expect(pieces).toEqual(['aaa bbb ccc extraordinary', 'ddd eee']);
  });

  it('carries raw characters after a cut inside a word', () => {
    const pieces = texts(splitText('x'.repeat(12), 5, 2));
    expect(pieces.every((piece) => piece.length <= 5)).toBe(true);
    expect(pieces.join('').length).toBeGreaterThan(12);
  });

  it('drops the overlap rather than cutting a word that would fit without it', () => {
    // -- "bb cc" carried would leave no room for the 14-letter word: it starts its own piece --
    const pieces = texts(splitText('aa bb cc dddddddddddddd', 15, 5));
    expect(pieces).toEqual(['aa bb cc', 'dddddddddddddd']);
  });

  it('pieces are exact slices with their offsets', () => {
    const text = 'The quick brown fox jumps over the lazy dog. It was not amused at all.';
    for (const piece of splitText(text, 25, 8)) {
      expect(text.slice(piece.start, piece.end)).toBe(piece.text);
    }
  });

  const words = fc.array(
    fc.oneof(
      fc.stringMatching(/^[a-z]{1,12}$/),
      fc.stringMatching(/^[A-Z][a-z]{0,8}[.!?]$/),
      fc.stringMatching(/^[a-z]{30,60}$/),
    ),
    { minLength: 1, maxLength: 80 },
  );
  const separators = fc.constantFrom(' ', ' ', ' ', '\n', '\n\n');

  it('property: pieces fit, start and end on non-space, cover the text in order, overlap within bounds', () => {
    fc.assert(
      fc.property(
        words,
        fc.array(separators, { minLength: 80, maxLength: 80 }),
        fc.integer({ min: 1, max: 120 }),
        fc.integer({ min: 0, max: 119 }),
        (list, seps, max, overlapRaw) => {
          const overlap = overlapRaw % max;
          const text = list.map((word, index) => (index === 0 ? word : seps[index]! + word)).join('');
          const pieces = splitText(text, max, overlap);
          let covered = 0;
          for (const piece of pieces) {
            expect(piece.text.length).toBeLessThanOrEqual(max);
            expect(piece.text).toBe(text.slice(piece.start, piece.end));
            expect(piece.text.trim()).toBe(piece.text);
            // -- a piece starts no later than where the previous one stopped (no text lost) --
            expect(text.slice(covered, Math.max(covered, piece.start)).trim()).toBe('');
            // -- carried text never exceeds `overlap` --
            expect(Math.max(0, covered - piece.start)).toBeLessThanOrEqual(overlap);
            covered = Math.max(covered, piece.end);
          }
          expect(covered).toBe(text.length);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('property: no word shorter than the limit is ever cut', () => {
    fc.assert(
      fc.property(
        words,
        fc.integer({ min: 61, max: 150 }),
        fc.integer({ min: 0, max: 30 }),
        (list, max, overlap) => {
          const text = list.join(' ');
          const wordSet = new Set(list);
          for (const piece of splitText(text, max, overlap)) {
            for (const word of piece.text.split(/\s+/)) expect(wordSet.has(word)).toBe(true);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('overlapTail', () => {
  it('returns the last whole words within the limit', () => {
    expect(overlapTail('alpha beta gamma', 11)).toBe('beta gamma');
    expect(overlapTail('alpha beta gamma', 5)).toBe('gamma');
    expect(overlapTail('alpha beta gamma', 4)).toBe('');
    expect(overlapTail('tiny', 10)).toBe('tiny');
    expect(overlapTail('anything', 0)).toBe('');
  });
});
