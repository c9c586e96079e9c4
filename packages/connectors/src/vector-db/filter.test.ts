import { describe, expect, it } from 'vitest';
import { quoteFilterString, recordFilter } from './filter.js';

/** Read a double-quoted literal back the way both servers do (C escapes). */
function unquote(literal: string): string {
  expect(literal.startsWith('"') && literal.endsWith('"')).toBe(true);
  const body = literal.slice(1, -1);
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const char = body[i]!;
    if (char === '"') throw new Error(`unescaped quote in ${literal}`);
    if (char === '\n' || char === '\r') throw new Error(`raw line break in ${literal}`);
    if (char !== '\\') {
      out += char;
      continue;
    }
    const next = body[++i];
    const mapped = { '"': '"', '\\': '\\', n: '\n', r: '\r', t: '\t' }[next ?? ''];
    if (mapped === undefined) throw new Error(`unknown escape \\${next} in ${literal}`);
    out += mapped;
  }
  return out;
}

const HOSTILE = [
  'plain',
  'a"b',
  'a\\b',
  'a\\"b',
  'x" or record_id != "',
  "it's",
  'line\nbreak',
  'tab\there',
  'cr\rx',
  'ctrl\u0001x',
  'emoji😀',
  '\\',
  '"',
  'trail\\',
  '',
];

describe('quoteFilterString', () => {
  it.each(HOSTILE)('reads back exactly: %j', (value) => {
    expect(unquote(quoteFilterString(value))).toBe(value);
  });

  it('builds the record filter', () => {
    expect(recordFilter('record_id', 'C:\\docs\\"a".txt')).toBe('record_id == "C:\\\\docs\\\\\\"a\\".txt"');
  });
});
