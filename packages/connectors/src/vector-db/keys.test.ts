import { describe, expect, it } from 'vitest';
import { elementIdOfKey, primaryKeys } from './keys.js';

describe('primaryKeys', () => {
  it('joins the element id and the shared record key, and keeps the id readable', () => {
    const keys = primaryKeys('/docs/a.txt', ['abc', 'def', 'abc'], 200);
    expect(keys[0]).toMatch(/^abc:[0-9a-f]{32}$/);
    expect(keys[2]).toMatch(/^abc:[0-9a-f]{32}$/);
    expect(new Set(keys).size).toBe(3);
    expect(keys.map(elementIdOfKey)).toEqual(['abc', 'def', 'abc']);
    expect(primaryKeys('/docs/b.txt', ['abc'], 200)[0]).not.toBe(keys[0]);
  });

  it('falls back to the record key alone when the id does not fit', () => {
    const [key] = primaryKeys('r', ['x'.repeat(300)], 200);
    expect(key).toMatch(/^[0-9a-f]{32}$/);
  });

  it('writes ids as the server stores them (lone surrogates become U+FFFD)', () => {
    const [key] = primaryKeys('r', ['a\ud800b'], 200);
    expect(key!.startsWith('a\ufffdb:')).toBe(true);
  });
});
