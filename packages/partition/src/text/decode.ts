import chardet from 'chardet';
import iconv from 'iconv-lite';
import { ServiceError } from '../errors.js';

/**
 * Bytes → string for every text-based format. Order: an explicit encoding (an unknown name is an
 * `invalid_encoding` error), a byte-order mark, UTF-16 without a mark (from its zero bytes), strict UTF-8,
 * then statistical detection (chardet),
 * falling back to windows-1252, which decodes any byte sequence.
 */

export interface DecodedText {
  text: string;
  /** The encoding actually used, normalised (e.g. "utf-8", "utf-16le", "windows-1252"). */
  encoding: string;
}

const BOMS: [number[], string][] = [
  [[0xef, 0xbb, 0xbf], 'utf-8'],
  [[0xff, 0xfe, 0x00, 0x00], 'utf-32le'],
  [[0x00, 0x00, 0xfe, 0xff], 'utf-32be'],
  [[0xff, 0xfe], 'utf-16le'],
  [[0xfe, 0xff], 'utf-16be'],
];

export function detectBom(data: Uint8Array): { encoding: string; length: number } | undefined {
  for (const [bytes, encoding] of BOMS) {
    if (bytes.every((byte, index) => data[index] === byte)) return { encoding, length: bytes.length };
  }
  return undefined;
}

const utf8Strict = new TextDecoder('utf-8', { fatal: true });

export function isValidUtf8(data: Uint8Array): boolean {
  try {
    utf8Strict.decode(data);
    return true;
  } catch {
    return false;
  }
}

/** Guess UTF-16 without a BOM from the pattern of zero bytes (ASCII-heavy text). */
function guessBomlessUtf16(data: Uint8Array): string | undefined {
  const sample = data.subarray(0, Math.min(data.length, 4096));
  if (sample.length < 4) return undefined;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let index = 0; index < sample.length; index++) {
    if (sample[index] === 0) {
      if (index % 2 === 0) evenZeros++;
      else oddZeros++;
    }
  }
  const half = sample.length / 2;
  if (oddZeros > half * 0.4 && evenZeros < half * 0.05) return 'utf-16le';
  if (evenZeros > half * 0.4 && oddZeros < half * 0.05) return 'utf-16be';
  return undefined;
}

export function normaliseEncodingName(name: string): string {
  const lower = name.trim().toLowerCase().replaceAll('_', '-');
  const aliases: Record<string, string> = {
    utf8: 'utf-8',
    'utf-16': 'utf-16le',
    utf16: 'utf-16le',
    'utf-32': 'utf-32le',
    utf32: 'utf-32le',
    latin1: 'iso-8859-1',
    'latin-1': 'iso-8859-1',
    cp1252: 'windows-1252',
    ascii: 'us-ascii',
  };
  return aliases[lower] ?? lower;
}

/** Decode with a named encoding; throws `invalid_encoding` for unknown names or undecodable UTF-8. */
export function decodeWith(data: Uint8Array, encoding: string): string {
  const name = normaliseEncodingName(encoding);
  if (name === 'utf-8' || name === 'us-ascii') {
    const bom = detectBom(data);
    const body = bom?.encoding === 'utf-8' ? data.subarray(3) : data;
    try {
      return utf8Strict.decode(body);
    } catch (error) {
      throw new ServiceError('invalid_encoding', `The input is not valid ${encoding}`, { cause: error });
    }
  }
  if (!iconv.encodingExists(name)) {
    throw new ServiceError('invalid_encoding', `Unknown encoding: ${encoding}`);
  }
  const text = iconv.decode(Buffer.from(data.buffer, data.byteOffset, data.byteLength), name, {
    stripBOM: true,
  });
  return text;
}

export function decodeText(data: Uint8Array, encoding?: string): DecodedText {
  if (encoding) return { text: decodeWith(data, encoding), encoding: normaliseEncodingName(encoding) };
  const bom = detectBom(data);
  if (bom) return { text: decodeWith(data, bom.encoding), encoding: bom.encoding };
  // Before UTF-8: ASCII-heavy UTF-16 is valid UTF-8 too (NUL is a legal byte), but no real text has NULs.
  const utf16 = guessBomlessUtf16(data);
  if (utf16) return { text: decodeWith(data, utf16), encoding: utf16 };
  if (isValidUtf8(data)) return { text: utf8Strict.decode(data), encoding: 'utf-8' };
  const guessed = guessLegacyEncoding(data);
  const name = guessed && iconv.encodingExists(guessed) ? normaliseEncodingName(guessed) : 'windows-1252';
  // chardet often says ISO-8859-1 for Windows text; windows-1252 is a superset that maps 0x80-0x9F to characters.
  const effective = name === 'iso-8859-1' ? 'windows-1252' : name;
  return { text: decodeWith(data, effective), encoding: effective };
}

const LATIN_SINGLE_BYTE = /^(iso-8859-\d+|windows-125\d)$/i;
const WESTERN = /^(iso-8859-1|windows-1252)$/i;

/**
 * chardet's statistical guess, except that a weak guess among the Latin single-byte code pages gives way
 * to windows-1252 when that is nearly as likely: short Western European text (a few accented names)
 * often scores slightly higher as ISO-8859-2, which turns "Å" into "Ĺ". Confident guesses (Shift_JIS,
 * GB18030, KOI8-R, a clear ISO-8859-2...) are kept.
 */
function guessLegacyEncoding(data: Uint8Array): string | undefined {
  const candidates = chardet.analyse(data.subarray(0, 256 * 1024));
  const top = candidates[0];
  if (!top) return undefined;
  if (LATIN_SINGLE_BYTE.test(top.name) && !WESTERN.test(top.name) && top.confidence < 60) {
    const western = candidates.find((candidate) => WESTERN.test(candidate.name));
    if (western && western.confidence >= top.confidence * 0.6) return 'windows-1252';
  }
  return top.name;
}

/** True when the bytes look like text (no NUL bytes in the sample, unless UTF-16/32). */
export function looksLikeText(data: Uint8Array): boolean {
  if (detectBom(data)) return true;
  if (guessBomlessUtf16(data)) return true;
  const sample = data.subarray(0, Math.min(data.length, 8192));
  let control = 0;
  for (const byte of sample) {
    if (byte === 0) return false;
    if (byte < 0x09 || (byte > 0x0d && byte < 0x20 && byte !== 0x1b)) control++;
  }
  return control <= sample.length * 0.02;
}

/**
 * Undo the commonest mis-decoding in e-mail: UTF-8 bytes read as ISO-8859-1 or windows-1252 (a part that
 * declares the wrong charset), which turns "I’m" into "Iâ\u0080\u0099m" and a no-break space into "Â ".
 * The text is re-encoded with the single-byte code page; only when that gives valid UTF-8 with multi-byte
 * sequences is the UTF-8 reading used. Genuine Latin-1 text ("café") never re-encodes to valid UTF-8.
 */
export function repairMojibake(text: string): string {
  if (
    !/[\u00c2-\u00f4][\u0080-\u00bf\u0152\u0153\u0160\u0161\u0178\u017d\u017e\u0192\u02c6\u02dc\u2013-\u2122]/.test(
      text,
    )
  ) {
    return text;
  }
  const codePage = /[^\u0000-\u00ff]/.test(text) ? 'windows-1252' : 'iso-8859-1';
  const bytes = iconv.encode(text, codePage);
  if (iconv.decode(bytes, codePage) !== text || !isValidUtf8(bytes)) return text;
  return utf8Strict.decode(bytes);
}
