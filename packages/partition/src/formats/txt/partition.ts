import { draft, type ElementDraft } from '../../elements/element.js';
import { assertText, decodeText, repairMojibake } from '../../text/decode.js';
import { classifyText } from '../../text/text-type.js';
import type { FormatPartitioner } from '../format.js';
import { splitBlocks } from './blocks.js';

export { splitBlocks } from './blocks.js';

/**
 * Plain text: the text is decoded (BOM, UTF-16/32, UTF-8, legacy code pages, double-encoded UTF-8
 * repaired; `encoding` overrides), split
 * into blocks with hard wrapping undone (blocks.ts), and each block is classified with the shared text
 * heuristics (text/text-type.ts): titles, narrative text, list items, addresses, e-mail addresses...
 */
export const partition: FormatPartitioner = async ({ data, options }) => {
  assertText(data, 'plain', options.encoding);
  const { text } = decodeText(data, options.encoding);
  // Text saved as UTF-8 twice over ("â€“" for "–") is repaired, unless the caller named the encoding.
  const repaired = options.encoding ? text : repairMojibake(text);
  return partitionPlainText(repaired.replace(/^\uFEFF/, ''));
};

/** Also used by formats whose content is plain text after extraction (e-mail bodies, <pre> blocks). */
export function partitionPlainText(text: string): ElementDraft[] {
  const drafts: ElementDraft[] = [];
  for (const block of splitBlocks(text)) {
    const classified = classifyText(block);
    if (classified.text !== '') drafts.push(draft(classified.type, classified.text));
  }
  return drafts;
}
