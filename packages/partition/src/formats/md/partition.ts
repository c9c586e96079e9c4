import MarkdownIt from 'markdown-it';
import type { ElementDraft } from '../../elements/element.js';
import type { FormatPartitioner } from '../format.js';
import { decodeTextOrWindows1252 } from '../html/decode-markup.js';
import { htmlToDrafts } from '../html/html-to-drafts.js';
import { assertMarkupText } from '../html/partition.js';

/**
 * Markdown (CommonMark + GitHub tables and strikethrough, autolinked URLs, raw HTML) is rendered to HTML
 * by markdown-it and read by htmlToDrafts, so headings, lists, tables, code, images and links behave
 * exactly as in HTML documents. markdown-it was chosen over marked and micromark by measurement
 * (docs/dependencies.md): marked's nested-list handling grows cubically and its block quotes overflow
 * the stack on deep nesting; markdown-it caps nesting (maxNesting 100) and stays linear.
 */

const markdown = new MarkdownIt('default', { html: true, linkify: true });

/** YAML (---) or TOML (+++) front matter at the very top is metadata for site generators, not text. */
const FRONT_MATTER =
  /^(?:---[ \t]*\r?\n[\s\S]*?\r?\n---|\+\+\+[ \t]*\r?\n[\s\S]*?\r?\n\+\+\+)[ \t]*(?:\r?\n|$)/;

export const partition: FormatPartitioner = async ({ data, options }) => {
  assertMarkupText(data, 'Markdown', options.encoding);
  const { text } = decodeTextOrWindows1252(data, options.encoding);
  return markdownToDrafts(text);
};

export function markdownToDrafts(source: string): ElementDraft[] {
  const body = source.replace(/^\uFEFF/, '').replace(FRONT_MATTER, '');
  if (body.trim() === '') return [];
  return htmlToDrafts(markdown.render(body), { useDeclaredLanguage: false });
}
