import iconv from 'iconv-lite';
import { ServiceError } from '../../errors.js';
import { type DecodedText, decodeText, decodeWith, detectBom, isValidUtf8 } from '../../text/decode.js';

/**
 * Bytes → string for HTML, XHTML and XML. The order follows what browsers and XML parsers do, then our
 * generic detection:
 *   1. a byte-order mark (it always wins: it cannot be there by accident);
 *   2. the document's own declaration — `<meta charset>`, `<meta http-equiv="Content-Type">` or the XML
 *      declaration's `encoding` — found by an ASCII prescan of the first bytes;
 *   3. the caller's `encoding` option;
 *   4. detection (text/decode.ts: strict UTF-8, UTF-16 patterns, chardet, windows-1252).
 * A declaration that names an unknown encoding, or says UTF-8 over bytes that are not UTF-8 (common on
 * old pages saved by editors), is ignored rather than trusted.
 */

/** Browsers look at the first 1024 bytes; XHTML files with long comments need a little more. */
const PRESCAN_BYTES = 4096;

const XML_DECLARATION = /^\s*<\?xml\s[^>]*?encoding\s*=\s*["']([\w.:-]+)["']/i;
const META_TAG = /<meta\s[^>]*>/gi;
const META_CHARSET = /\bcharset\s*=\s*["']?\s*([\w.:-]+)/i;

/** The encoding the markup declares for itself, if any (not validated). */
export function declaredMarkupEncoding(data: Uint8Array): string | undefined {
  // latin1 maps every byte to one code unit, so ASCII markup reads correctly whatever the real encoding.
  const head = Buffer.from(data.buffer, data.byteOffset, Math.min(data.byteLength, PRESCAN_BYTES)).toString(
    'latin1',
  );
  const xml = XML_DECLARATION.exec(head);
  if (xml?.[1]) return xml[1];
  for (const [tag] of head.matchAll(META_TAG)) {
    const charset = META_CHARSET.exec(tag);
    if (charset?.[1]) return charset[1];
  }
  return undefined;
}

function usableDeclaration(data: Uint8Array): string | undefined {
  const declared = declaredMarkupEncoding(data)?.toLowerCase();
  if (!declared) return undefined;
  // A UTF-16 declaration readable as ASCII is a lie by construction (HTML spec: treat it as UTF-8).
  if (declared.startsWith('utf-16') || declared.startsWith('utf-32')) return undefined;
  if (declared === 'utf-8' || declared === 'utf8') return isValidUtf8(data) ? 'utf-8' : undefined;
  return iconv.encodingExists(declared) ? declared : undefined;
}

export function decodeMarkup(data: Uint8Array, encodingOption?: string): DecodedText {
  const bom = detectBom(data);
  if (bom) return { text: decodeWith(data, bom.encoding), encoding: bom.encoding };
  const declared = usableDeclaration(data);
  if (declared) {
    // ISO-8859-1 is declared by many pages whose bytes are really windows-1252 (the HTML spec maps it so).
    const effective = declared === 'iso-8859-1' || declared === 'latin1' ? 'windows-1252' : declared;
    return { text: decodeWith(data, effective), encoding: effective };
  }
  return decodeTextOrWindows1252(data, encodingOption);
}

/**
 * decodeText, except that when detection names an encoding the bytes then fail (chardet can say ASCII
 * for text with a few accented letters), the text is read as windows-1252, the usual source of such bytes.
 * For text formats without a declaration of their own (Markdown, RST, Org).
 */
export function decodeTextOrWindows1252(data: Uint8Array, encodingOption?: string): DecodedText {
  if (encodingOption) return decodeText(data, encodingOption);
  try {
    return decodeText(data);
  } catch (error) {
    if (error instanceof ServiceError && error.code === 'invalid_encoding') {
      return { text: decodeWith(data, 'windows-1252'), encoding: 'windows-1252' };
    }
    throw error;
  }
}
