/**
 * RTF tokens: `{` and `}`, control words (`\par`, `\fs24`, `\u8212`), control symbols (`\~`, `\*`),
 * hex bytes (`\'e9`) and runs of plain text. `\binN` payloads are skipped here, since their bytes are
 * not text. The input is read byte by byte as Latin-1: RTF itself is 7-bit; code-page bytes arrive as
 * `\'hh` (or raw 8-bit bytes in sloppy files) and are decoded later with the document's code page.
 */

export type RtfToken =
  | { kind: 'groupStart' }
  | { kind: 'groupEnd' }
  | { kind: 'word'; name: string; param: number | undefined }
  | { kind: 'symbol'; char: string }
  | { kind: 'byte'; value: number }
  | { kind: 'text'; text: string };

const isLetter = (code: number) => (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a);
const isDigit = (code: number) => code >= 0x30 && code <= 0x39;

export function* tokenizeRtf(data: Uint8Array): Generator<RtfToken> {
  const length = data.length;
  let index = 0;
  while (index < length) {
    const code = data[index]!;
    if (code === 0x7b) {
      index++;
      yield { kind: 'groupStart' };
    } else if (code === 0x7d) {
      index++;
      yield { kind: 'groupEnd' };
    } else if (code === 0x5c) {
      index++;
      if (index >= length) return;
      const next = data[index]!;
      if (isLetter(next)) {
        let end = index;
        while (end < length && isLetter(data[end]!) && end - index < 32) end++;
        const name = latin1(data, index, end);
        let paramEnd = end;
        if (paramEnd < length && data[paramEnd] === 0x2d) paramEnd++;
        while (paramEnd < length && isDigit(data[paramEnd]!) && paramEnd - end < 11) paramEnd++;
        const digits = latin1(data, end, paramEnd);
        const param = digits === '' || digits === '-' ? undefined : Number(digits);
        index = digits === '-' ? end : paramEnd;
        // One space after a control word is its delimiter, not text.
        if (index < length && data[index] === 0x20) index++;
        if (name === 'bin' && param !== undefined && param > 0) {
          index += param;
          continue;
        }
        yield { kind: 'word', name, param };
      } else if (next === 0x27) {
        const hex = latin1(data, index + 1, index + 3);
        index += 3;
        const value = Number.parseInt(hex, 16);
        if (!Number.isNaN(value)) yield { kind: 'byte', value };
      } else {
        index++;
        // A backslash before a line break is a paragraph mark in old writers.
        if (next === 0x0a || next === 0x0d) yield { kind: 'word', name: 'par', param: undefined };
        else yield { kind: 'symbol', char: String.fromCharCode(next) };
      }
    } else if (code === 0x0a || code === 0x0d) {
      index++; // line breaks in the source are not content
    } else {
      let end = index;
      while (end < length) {
        const c = data[end]!;
        if (c === 0x5c || c === 0x7b || c === 0x7d || c === 0x0a || c === 0x0d) break;
        end++;
      }
      const text = latin1(data, index, end);
      index = end;
      // Bytes above 0x7F written raw belong to the code page, like \'hh.
      if (/[\x80-\xff]/.test(text)) {
        for (const char of text) {
          const value = char.charCodeAt(0);
          if (value > 0x7f) yield { kind: 'byte', value };
          else yield { kind: 'text', text: char };
        }
      } else yield { kind: 'text', text };
    }
  }
}

function latin1(data: Uint8Array, start: number, end: number): string {
  const stop = Math.min(end, data.length);
  if (stop <= start) return '';
  return Buffer.from(data.buffer, data.byteOffset + start, stop - start).toString('latin1');
}
