import type { TextLayerPage } from './source.js';

/**
 * Is a PDF page's text layer worth using, or should the page be read by OCR? A scanned page has no
 * characters; a page whose fonts lack Unicode maps extracts as "(cid:12)" junk or private-use
 * characters; both are OCR'd instead.
 */

/** Fewer printable characters than this and the page is treated as having no text layer. */
const MIN_CHARS = 20;
/** Share of characters that may lack a Unicode mapping. */
const MAX_UNMAPPED_SHARE = 0.1;
/** Share of characters that must be letters, digits, spaces or ordinary punctuation. */
const MIN_ORDINARY_SHARE = 0.8;

const CID_JUNK = /\(cid:\d+\)/g;
// Letters and digits of any script, whitespace, and the punctuation and symbols text normally uses.
const ORDINARY = /[\p{L}\p{N}\s\p{P}\p{Sc}\p{Sm}°©®™]/gu;

export interface TextLayerVerdict {
  usable: boolean;
  reason: 'ok' | 'no_text' | 'unmapped_fonts' | 'garbage';
}

export function judgeTextLayer(page: TextLayerPage | undefined): TextLayerVerdict {
  if (!page) return { usable: false, reason: 'no_text' };
  const text = page.lines.map((line) => line.text).join(' ');
  const chars = text.replace(/\s/g, '').length;
  if (chars < MIN_CHARS) return { usable: false, reason: 'no_text' };
  const stats = page.stats;
  if (stats && stats.chars > 0 && stats.unmappedChars / stats.chars > MAX_UNMAPPED_SHARE) {
    return { usable: false, reason: 'unmapped_fonts' };
  }
  const cidJunk = (text.match(CID_JUNK) ?? []).join('').length;
  const ordinary = (text.replace(CID_JUNK, '').match(ORDINARY) ?? []).length;
  if (cidJunk / text.length > MAX_UNMAPPED_SHARE || ordinary / text.length < MIN_ORDINARY_SHARE) {
    return { usable: false, reason: 'garbage' };
  }
  return { usable: true, reason: 'ok' };
}
