import { draft, type ElementDraft } from '../../elements/element.js';
import type { ElementMetadata } from '../../elements/metadata.js';
import { tableToHtml, tableToText } from '../../elements/table-html.js';
import { ServiceError } from '../../errors.js';
import { classifyText, isBulleted, isPossibleTitle, stripBullet } from '../../text/text-type.js';
import type { FormatPartitioner } from '../format.js';
import { partitionEmbeddedHtml } from '../html/embedded.js';
import { partitionPlainText } from '../txt/partition.js';
import { encapsulatedOriginal } from './encapsulated.js';
import { type RtfParagraph, readRtf } from './reader.js';

/**
 * Rich Text Format. No well-kept RTF parser exists on npm (rtf-parser and @iarna/rtf-to-html are
 * unmaintained since 2017-2019; rtf.js renders to a browser DOM), so a small tokenizer and reader live
 * here. Headings come from heading styles or \outlinelevel, list items from list text (\listtext,
 * \pntext) or \ls; tables from \cell/\row; headers and footers from their destinations.
 * RTF that encapsulates an HTML or text original (Outlook) is read as that original.
 */
export const partition: FormatPartitioner = async (context) => {
  const original = encapsulatedOriginal(context.data);
  if (original?.mode === 'text') return partitionPlainText(original.text);
  if (original?.mode === 'html') return partitionEmbeddedHtml(context, original.text);
  return partitionRtf(context.data);
};

/** A plain paragraph is promoted to Title by its look only when it is this short and all bold. */
const BOLD_HEADING_MAX_WORDS = 10;

export function partitionRtf(data: Uint8Array): ElementDraft[] {
  const head = Buffer.from(data.subarray(0, 16)).toString('latin1').trimStart();
  if (!head.startsWith('{\\rtf')) {
    throw new ServiceError('corrupt_document', 'The file is not RTF: it does not start with {\\rtf.');
  }
  let page = 1;
  const drafts: ElementDraft[] = [];
  const footers: ElementDraft[] = [];
  for (const block of readRtf(data)) {
    switch (block.kind) {
      case 'pageBreak':
        page++;
        drafts.push(draft('PageBreak', ''));
        break;
      case 'header':
        drafts.push(draft('Header', block.text, { header_footer_type: 'primary', page_number: page }));
        break;
      case 'footer':
        // Footers are defined up front in RTF but belong at the end of the pages they run on.
        footers.push(draft('Footer', block.text, { header_footer_type: 'primary' }));
        break;
      case 'table': {
        const text = tableToText(block.rows);
        if (text)
          drafts.push(draft('Table', text, { text_as_html: tableToHtml(block.rows), page_number: page }));
        break;
      }
      case 'paragraph': {
        const element = paragraphDraft(block);
        if (element) {
          element.metadata = { ...element.metadata, page_number: page };
          drafts.push(element);
        }
        break;
      }
    }
  }
  for (const footer of footers)
    drafts.push(draft('Footer', footer.text, { ...footer.metadata, page_number: page }));
  return drafts;
}

function paragraphDraft(paragraph: RtfParagraph): ElementDraft | undefined {
  const raw = paragraph.text.trim();
  if (raw === '' || (isBulleted(raw) && stripBullet(raw) === '')) return undefined;
  const metadata: ElementMetadata = {};
  if (paragraph.emphasis.length > 0) {
    metadata.emphasized_text_contents = paragraph.emphasis.map((e) => e.text);
    metadata.emphasized_text_tags = paragraph.emphasis.map((e) => e.tag);
  }
  if (paragraph.links.length > 0) {
    const shift = paragraph.text.length - paragraph.text.trimStart().length;
    metadata.link_urls = paragraph.links.map((link) => link.url);
    metadata.link_texts = paragraph.links.map((link) => link.text);
    metadata.links = paragraph.links.map((link) => ({
      ...link,
      start_index: Math.max(0, link.start_index - shift),
    }));
  }
  if (paragraph.headingDepth !== undefined) {
    return draft('Title', raw, { ...metadata, category_depth: paragraph.headingDepth });
  }
  if (paragraph.listDepth !== undefined || isBulleted(raw)) {
    return draft('ListItem', isBulleted(raw) ? stripBullet(raw) : raw, {
      ...metadata,
      category_depth: paragraph.listDepth ?? 0,
    });
  }
  const classified = classifyText(raw);
  if (classified.type === 'Title') {
    const boldHeading =
      paragraph.allBold && raw.split(/\s+/).length <= BOLD_HEADING_MAX_WORDS && isPossibleTitle(raw);
    return draft(boldHeading ? 'Title' : 'UncategorizedText', classified.text, metadata);
  }
  return draft(classified.type, classified.text, metadata);
}
