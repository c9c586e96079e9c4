import type { PartitionOptions } from '../../options/partition-options.js';
import { assertText } from '../../text/decode.js';
import type { FormatPartitioner } from '../format.js';
import { decodeMarkup } from './decode-markup.js';
import { htmlToDrafts } from './html-to-drafts.js';

/**
 * .html/.htm/.xhtml: decode (BOM, then the page's own charset declaration, then options.encoding, then
 * detection), then htmlToDrafts. `<html lang>` sets languages unless the caller gave languages or asked
 * for per-element detection.
 */
export const partition: FormatPartitioner = async ({ data, options }) => {
  assertMarkupText(data, 'HTML', options.encoding);
  const { text } = decodeMarkup(data, options.encoding);
  return htmlToDrafts(text, { useDeclaredLanguage: mayUseDeclaredLanguage(options) });
};

/** Binary bytes behind a markup extension are a broken document (judged in the given encoding, if any). */
export function assertMarkupText(data: Uint8Array, format: string, encoding?: string): void {
  assertText(data, format, encoding);
}

/** The document's declared language is used only when the caller neither gave one nor wants detection. */
export function mayUseDeclaredLanguage(options: PartitionOptions): boolean {
  const given = options.languages?.some((code) => code.toLowerCase() !== 'auto') ?? false;
  return !given && !options.detect_language_per_element;
}
