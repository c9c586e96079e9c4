import iconv from 'iconv-lite';
import { deEncapsulateSync } from 'rtf-stream-parser';

/**
 * Outlook writes HTML and plain-text mail as RTF that carries the original inside it (\fromhtml1 or
 * \fromtext, MS-OXRTFEX): the HTML tags sit in \*\htmltag groups and the RTF rendering of them is
 * marked \htmlrtf. Reading such a file as RTF gives the rendering, without its headings, lists and
 * tables; de-encapsulating it gives the original back, which the HTML or text partitioner then reads.
 */
export interface EncapsulatedOriginal {
  mode: 'html' | 'text';
  text: string;
}

/** The \fromhtml / \fromtext marker must appear in the document header, before any text. */
const HEADER_BYTES = 2048;

export function encapsulatedOriginal(data: Uint8Array): EncapsulatedOriginal | undefined {
  const head = Buffer.from(data.subarray(0, HEADER_BYTES)).toString('latin1');
  if (!/\\from(html1|text)\b/.test(head)) return undefined;
  try {
    const result = deEncapsulateSync(Buffer.from(data.buffer, data.byteOffset, data.byteLength), {
      mode: 'either',
      decode: (buffer, encoding) => iconv.decode(buffer, encoding),
      encode: (text, encoding) => iconv.encode(text, encoding),
      warn: () => {},
    });
    return { mode: result.mode, text: result.text.toString() };
  } catch {
    return undefined; // a damaged encapsulation is still RTF: read it as such
  }
}
