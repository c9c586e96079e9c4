import chardet from 'chardet';
import iconv from 'iconv-lite';
import { ServiceError } from '../errors.js';

/**
 * Bytes → string for every text-based format. Order: an explicit encoding (an unknown name, or UTF-8
 * over bytes that are not UTF-8, is an `invalid_encoding` error: the caller said something wrong), a
 * byte-order mark, UTF-16 without a mark (from its zero bytes), strict UTF-8, then statistical detection
 * (chardet) among the legacy code pages, falling back to windows-1252, which decodes any byte sequence.
 * Without an explicit encoding, decoding never fails.
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
  // cp1250 … cp1258 are the Windows code pages under their IBM names.
  return aliases[lower] ?? lower.replace(/^cp(125\d)$/, 'windows-$1');
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
  const legacy = guessLegacyEncoding(data);
  return { text: decodeWith(data, legacy), encoding: legacy };
}

/** How many bytes statistical detection looks at: plenty for a code page, bounded for huge files. */
const DETECTION_SAMPLE_BYTES = 256 * 1024;
const LATIN_SINGLE_BYTE = /^(iso-8859-\d+|windows-125\d)$/i;
const WESTERN = /^(iso-8859-1|windows-1252)$/i;
/**
 * Guesses that cannot be right for bytes already known not to be UTF-8 or BOM-less UTF-16: chardet says
 * "ASCII" when its sample has no high byte, and UTF-16/32 for tiny inputs.
 */
const UNICODE_OR_ASCII = /^(ascii|us-ascii|utf-?8|utf-?16|utf-?32|ucs-?[24])/i;

/**
 * chardet's statistical guess among the legacy encodings, as a name iconv decodes. Three corrections:
 * - the sample is made of the lines that hold non-ASCII bytes (they are what tells code pages apart), so
 *   a file whose accented letters come late is not judged on a pure-ASCII head;
 * - a guess whose decoding has replacement characters (a multi-byte code page over single-byte text) is
 *   skipped;
 * - a weak guess among the Latin code pages gives way to windows-1252 when that is nearly as likely:
 *   short Western European text (a few accented names) often scores slightly higher as ISO-8859-2, which
 *   turns "Å" into "Ĺ". Confident guesses (Shift_JIS, GB18030, KOI8-R, a clear ISO-8859-2...) are kept.
 * ISO-8859-1 is read as windows-1252, its superset that maps 0x80-0x9F to characters (as browsers do).
 */
function guessLegacyEncoding(data: Uint8Array): string {
  const sample = Buffer.from(detectionSample(data));
  const candidates = chardet
    .analyse(sample)
    .filter((candidate) => !UNICODE_OR_ASCII.test(candidate.name) && iconv.encodingExists(candidate.name))
    .filter((candidate) => !iconv.decode(sample, candidate.name).includes('\uFFFD'));
  const top = candidates[0];
  if (!top) return 'windows-1252';
  let name = normaliseEncodingName(top.name);
  if (LATIN_SINGLE_BYTE.test(name) && !WESTERN.test(name) && top.confidence < 60) {
    const western = candidates.find((candidate) => WESTERN.test(candidate.name));
    if (western && western.confidence >= top.confidence * 0.6) name = 'windows-1252';
  }
  return name === 'iso-8859-1' ? 'windows-1252' : name;
}

/** The lines holding bytes ≥ 0x80, up to the sample size; the head of the data when there are none. */
function detectionSample(data: Uint8Array): Uint8Array {
  const lines: Uint8Array[] = [];
  let size = 0;
  let start = 0;
  let highByte = false;
  for (let index = 0; index <= data.length && size < DETECTION_SAMPLE_BYTES; index++) {
    const byte = index < data.length ? data[index]! : 0x0a;
    if (byte === 0x0a) {
      if (highByte) {
        const line = data.subarray(start, Math.min(index + 1, data.length));
        lines.push(line);
        size += line.length;
      }
      start = index + 1;
      highByte = false;
    } else if (byte >= 0x80) highByte = true;
  }
  if (lines.length === 0) return data.subarray(0, DETECTION_SAMPLE_BYTES);
  return new Uint8Array(Buffer.concat(lines)).subarray(0, DETECTION_SAMPLE_BYTES);
}

/**
 * True when the bytes look like text: no NUL bytes and few control characters in the sample, unless
 * UTF-16/32. With a given encoding the decoded sample is judged first (BOM-less UTF-16 in a script
 * without ASCII has no telltale zero bytes, and many of its bytes look like control characters).
 */
export function looksLikeText(data: Uint8Array, encoding?: string): boolean {
  if (detectBom(data)) return true;
  const name = encoding ? normaliseEncodingName(encoding) : undefined;
  // A sample may end inside a character; non-fatal decoding turns only that one into U+FFFD. When the
  // given encoding cannot read the bytes, the bytes are judged as if none were given.
  if (name && iconv.encodingExists(name)) {
    const decoded = iconv.decode(Buffer.from(data.subarray(0, 8192)), name, { stripBOM: true });
    if (looksLikeDecodedText(decoded)) return true;
  }
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
 * Binary bytes behind a text file type (declared by content type, or a text extension over garbage) are
 * a broken document, not text to guess at: `corrupt_document`. `format` names the type in the message.
 */
export function assertText(data: Uint8Array, format: string, encoding?: string): void {
  if (data.length > 0 && !looksLikeText(data, encoding)) {
    throw new ServiceError('corrupt_document', `The file is not ${format} text: it contains binary data.`);
  }
}

function looksLikeDecodedText(text: string): boolean {
  let suspicious = 0;
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code === 0) return false;
    if (code < 0x09 || (code > 0x0d && code < 0x20 && code !== 0x1b) || code === 0xfffd) suspicious++;
  }
  return suspicious <= text.length * 0.02 + 1;
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
