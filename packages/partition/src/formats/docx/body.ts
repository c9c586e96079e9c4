import { draft, type ElementDraft } from '../../elements/element.js';
import type { ElementType } from '../../elements/element-types.js';
import type { ElementMetadata } from '../../elements/metadata.js';
import { tableToHtml, tableToText } from '../../elements/table-html.js';
import { classifyText, isBulleted, isPossibleTitle, stripBullet } from '../../text/text-type.js';
import { imageMimeType } from '../ooxml/package.js';
import { child, children, isOn, type XmlElement } from '../ooxml/xml.js';
import type { ZipArchive } from '../ooxml/zip-archive.js';
import {
  type Emphasis,
  type ImageRef,
  type ParagraphReaderContext,
  readParagraph,
  type TextFragment,
} from './paragraph.js';
import type { ParagraphRole } from './styles.js';
import { readTable } from './table.js';

/**
 * Turns the block content of a Word body, header, footer or text box (paragraphs, tables, content
 * controls) into element drafts in reading order, counting pages as it goes.
 */

/** A "Normal" paragraph is promoted to Title by its look only when it is this short and all bold. */
const BOLD_HEADING_MAX_WORDS = 10;

export interface BodyWriterOptions {
  reader: ParagraphReaderContext;
  zip: ZipArchive;
  /** Read picture bytes into image_base64 (only when the caller asked for Image payloads). */
  withImagePayloads: boolean;
}

export class BodyWriter {
  readonly drafts: ElementDraft[] = [];
  page = 1;
  private lastTitleDepth: number | undefined;
  private contentEmitted = false;

  constructor(private readonly options: BodyWriterOptions) {}

  writeBlocks(container: XmlElement): void {
    for (const block of children(container)) {
      switch (block.name) {
        case 'w:p':
          this.writeParagraph(block);
          break;
        case 'w:tbl':
          this.writeTable(block);
          break;
        case 'w:sdt':
          this.writeBlocks(child(block, 'w:sdtContent') ?? block);
          break;
        case 'w:customXml':
        case 'w:ins':
        case 'w:moveTo':
          this.writeBlocks(block);
          break;
        default:
          break;
      }
    }
  }

  pageBreak(): void {
    this.page++;
    this.drafts.push(draft('PageBreak', ''));
  }

  private writeParagraph(paragraph: XmlElement): void {
    const reader = this.options.reader;
    const pPr = child(paragraph, 'w:pPr');
    if (reader.pageBreakMode === 'hard' && isOn(child(pPr, 'w:pageBreakBefore')) && this.contentEmitted) {
      this.pageBreak();
    }
    const role = reader.styles.paragraphRole(pPr);
    const content = readParagraph(paragraph, reader);
    for (const piece of content.pieces) {
      if (piece.kind === 'pageBreak') this.pageBreak();
      else this.writeText(piece.fragment, role);
    }
    for (const image of content.images) this.writeImage(image);
    for (const textBox of content.textBoxes) this.writeBlocks(textBox);
  }

  private writeText(fragment: TextFragment, role: ParagraphRole): void {
    const raw = fragment.text.trim();
    // Empty paragraphs space the layout; a lone bullet character is an empty list item.
    if (raw === '' || (isBulleted(raw) && stripBullet(raw) === '')) return;
    let type: ElementType;
    let text = raw;
    let depth: number | undefined;
    if (role?.kind === 'title') {
      type = 'Title';
      depth = role.depth;
      this.lastTitleDepth = depth;
    } else if (role?.kind === 'list') {
      type = 'ListItem';
      depth = role.depth;
      if (isBulleted(text)) text = stripBullet(text) || text;
    } else if (role?.kind === 'caption') {
      type = 'FigureCaption';
    } else {
      const classified = classifyText(raw);
      type = classified.type;
      text = classified.text;
      if (type === 'ListItem') depth = 0;
      if (type === 'Title') {
        // Word marks headings with styles; a plain paragraph is a heading only when it looks like one.
        if (isBoldHeading(fragment, raw)) depth = (this.lastTitleDepth ?? -1) + 1;
        else type = 'UncategorizedText';
      }
    }
    this.emit(type, text, {
      category_depth: depth,
      ...emphasisMetadata(fragment.emphasis),
      ...linkMetadata(fragment),
    });
  }

  private writeTable(table: XmlElement): void {
    const emphasis: Emphasis[] = [];
    const reader = { ...this.options.reader, pageBreakMode: 'none' as const };
    const { rows, headerRows } = readTable(table, (paragraph) => {
      const content = readParagraph(paragraph, reader);
      let text = '';
      for (const piece of content.pieces) {
        if (piece.kind !== 'text') continue;
        text += piece.fragment.text;
        emphasis.push(...piece.fragment.emphasis);
      }
      return text;
    });
    const text = tableToText(rows);
    if (text !== '') {
      this.emit('Table', text, {
        text_as_html: tableToHtml(rows, { headerRows }),
        ...emphasisMetadata(emphasis),
      });
    }
    // Pages that end inside the table start after it: its element keeps the page it starts on.
    for (let count = countPageBreaks(table, this.options.reader.pageBreakMode); count > 0; count--) {
      this.pageBreak();
    }
  }

  private writeImage(image: ImageRef): void {
    const relationship = this.options.reader.relationships.get(image.relationshipId);
    const metadata: ElementMetadata = {};
    if (relationship && !relationship.external) {
      metadata.image_mime_type = imageMimeType(relationship.target);
      if (this.options.withImagePayloads) {
        const bytes = this.options.zip.read(relationship.target);
        if (bytes) metadata.image_base64 = Buffer.from(bytes).toString('base64');
      }
    } else if (relationship?.external) {
      metadata.image_url = relationship.target;
    }
    this.emit('Image', image.description, metadata);
  }

  emit(type: ElementType, text: string, metadata: ElementMetadata): void {
    this.contentEmitted = true;
    this.drafts.push(draft(type, text, { ...metadata, page_number: this.page }));
  }
}

function isBoldHeading(fragment: TextFragment, text: string): boolean {
  return (
    fragment.allBold &&
    text.split(/\s+/).length <= BOLD_HEADING_MAX_WORDS &&
    !/[.,;]$/.test(text) &&
    isPossibleTitle(text)
  );
}

export function emphasisMetadata(emphasis: readonly Emphasis[]): ElementMetadata {
  if (emphasis.length === 0) return {};
  return {
    emphasized_text_contents: emphasis.map((e) => e.text),
    emphasized_text_tags: emphasis.map((e) => e.tag),
  };
}

function linkMetadata(fragment: TextFragment): ElementMetadata {
  if (fragment.links.length === 0) return {};
  // Offsets were taken in the untrimmed text; the element text is trimmed at the start.
  const shift = fragment.text.length - fragment.text.trimStart().length;
  return {
    link_urls: fragment.links.map((link) => link.url),
    link_texts: fragment.links.map((link) => link.text),
    links: fragment.links.map((link) => ({ ...link, start_index: Math.max(0, link.start_index - shift) })),
  };
}

function countPageBreaks(element: XmlElement, mode: ParagraphReaderContext['pageBreakMode']): number {
  if (mode === 'none') return 0;
  let count = 0;
  const stack = [element];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (mode === 'rendered' && node.name === 'w:lastRenderedPageBreak') count++;
    else if (mode === 'hard' && node.name === 'w:br' && node.attrs['w:type'] === 'page') count++;
    for (const inner of node.children) if (typeof inner !== 'string') stack.push(inner);
  }
  return count;
}
