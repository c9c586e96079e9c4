import { type ChildNode, type Element, isCDATA, isTag, isText } from 'domhandler';
import { parseDocument } from 'htmlparser2';
import { draft, type ElementDraft } from '../../elements/element.js';
import { ServiceError } from '../../errors.js';
import { classifyText } from '../../text/text-type.js';
import type { FormatPartitioner } from '../format.js';
import { decodeMarkup } from '../html/decode-markup.js';
import { limitNesting } from '../html/nesting.js';
import { assertMarkupText } from '../html/partition.js';

/**
 * XML: the text of each element that holds text of its own (a leaf such as <name>Canada</name>, or a
 * mixed-content element such as <para>Some <b>bold</b> words</para>, read whole) becomes one element,
 * classified by the shared text heuristics, in document order. Attributes, comments, processing
 * instructions and the DTD are not content. With `xml_keep_tags` the document is one element whose text
 * is the XML itself.
 *
 * The parser (htmlparser2 in XML mode) never expands entities declared in a DTD, so entity bombs cost
 * nothing; truncated or mismatched markup is read as far as it is readable. A file without a single
 * element is not XML: corrupt_document.
 */
export const partition: FormatPartitioner = async ({ data, options }) => {
  assertMarkupText(data, 'XML', options.encoding);
  const source = decodeMarkup(data, options.encoding)
    .text.replace(/^\uFEFF/, '')
    .trim();
  if (source === '') return [];
  const document = parseDocument(limitNesting(source, { html: false }), { xmlMode: true });
  if (!document.children.some(isTag)) {
    throw new ServiceError('corrupt_document', 'The file is not XML: it contains no element.');
  }
  if (options.xml_keep_tags) return [draft('UncategorizedText', source)];
  return xmlTextDrafts(document.children);
};

/** Elements with their own text, in document order; each read whole. */
export function xmlTextDrafts(roots: ChildNode[]): ElementDraft[] {
  const drafts: ElementDraft[] = [];
  const stack: ChildNode[] = [...roots].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!isTag(node)) continue;
    if (hasOwnText(node)) {
      const text = collapsedText(node);
      if (text !== '') {
        const classified = classifyText(text);
        drafts.push(draft(classified.type, classified.text));
      }
      continue;
    }
    for (let index = node.children.length - 1; index >= 0; index--) stack.push(node.children[index]!);
  }
  return drafts;
}

function hasOwnText(element: Element): boolean {
  return element.children.some(
    (child) =>
      (isText(child) && child.data.trim() !== '') ||
      (isCDATA(child) && child.children.some((inner) => isText(inner) && inner.data.trim() !== '')),
  );
}

/** All text below an element (CDATA included), whitespace collapsed; iterative for deep documents. */
function collapsedText(root: Element): string {
  const parts: string[] = [];
  const stack: ChildNode[] = [...root.children].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (isText(node)) parts.push(node.data);
    else if (isTag(node) || isCDATA(node)) {
      for (let index = node.children.length - 1; index >= 0; index--) stack.push(node.children[index]!);
    }
  }
  return parts.join('').replace(/\s+/g, ' ').trim();
}
