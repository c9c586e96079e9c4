import type { FormatPartitioner } from '../format.js';
import { decodeTextOrWindows1252 } from '../html/decode-markup.js';
import { htmlToDrafts } from '../html/html-to-drafts.js';
import { assertMarkupText } from '../html/partition.js';
import { orgToHtml } from './to-html.js';

/**
 * Org mode: converted to HTML by a small parser of our own (to-html.ts), then read by htmlToDrafts, so
 * headlines, lists, tables and code give the same elements as in HTML and Markdown.
 */
export const partition: FormatPartitioner = async ({ data, options }) => {
  assertMarkupText(data, 'Org', options.encoding);
  const { text } = decodeTextOrWindows1252(data, options.encoding);
  const source = text.replace(/^\uFEFF/, '');
  if (source.trim() === '') return [];
  return htmlToDrafts(orgToHtml(source), { useDeclaredLanguage: false, detectPageChrome: false });
};
