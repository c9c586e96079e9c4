import { draft, type ElementDraft } from '../../elements/element.js';
import { decodeText } from '../../text/decode.js';
import { classifyText, isBulleted, isNumberedListItem } from '../../text/text-type.js';
import type { FormatPartitioner } from '../format.js';

/**
 * Plain text: paragraphs are separated by blank lines; lines inside a paragraph are joined (hard-wrapped
 * prose), except that each bulleted or numbered line starts a new list item. Each block is classified
 * with the shared text heuristics.
 */
export const partition: FormatPartitioner = async ({ data, options }) => {
  const { text } = decodeText(data, options.encoding);
  return partitionPlainText(text);
};

/** Also used by formats whose content is plain text after extraction (rst/org fallbacks, e-mail bodies). */
export function partitionPlainText(text: string): ElementDraft[] {
  const drafts: ElementDraft[] = [];
  for (const block of splitBlocks(text)) {
    const classified = classifyText(block);
    if (classified.text !== '') drafts.push(draft(classified.type, classified.text));
  }
  return drafts;
}

/** Paragraphs on blank lines; list lines split into their own blocks; wrapped lines joined with spaces. */
export function splitBlocks(text: string): string[] {
  const normalised = text.replace(/\r\n?/g, '\n').replace(/\f/g, '\n\n');
  const blocks: string[] = [];
  for (const paragraph of normalised.split(/\n[ \t\u00a0]*\n/)) {
    let current: string[] = [];
    const flush = () => {
      const joined = current.join(' ').replace(/\s+/g, ' ').trim();
      if (joined !== '') blocks.push(joined);
      current = [];
    };
    for (const line of paragraph.split('\n')) {
      if (line.trim() === '') continue;
      if (isBulleted(line) || isNumberedListItem(line)) flush();
      current.push(line.trim());
    }
    flush();
  }
  return blocks;
}
