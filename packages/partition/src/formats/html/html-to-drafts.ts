import { type ChildNode, Element as DomElement, type Element } from 'domhandler';
import { parseDocument } from 'htmlparser2';
import { draft, type ElementDraft } from '../../elements/element.js';
import type { ElementType } from '../../elements/element-types.js';
import type { ElementMetadata } from '../../elements/metadata.js';
import { tableToHtml, tableToText } from '../../elements/table-html.js';
import { toIso6393 } from '../../text/languages.js';
import { classifyText, stripBullet } from '../../text/text-type.js';
import {
  BLOCK_TAGS,
  CODE_BLOCK_PARENTS,
  CONTENT_SECTIONS,
  EMPHASIS_TAGS,
  HEADING_LEVEL,
  isElement,
  isSkipped,
  isTextNode,
  LIST_TAGS,
  siblingRows,
  styleEmphasis,
} from './dom.js';
import { type ImageResolver, imageParts } from './images.js';
import { type InlineBlock, InlineBuffer, isBoldThroughout } from './inline-text.js';
import { limitNesting } from './nesting.js';
import { preformattedDrafts } from './preformatted.js';
import { isListMarker, readTable, tableKind } from './tables.js';

export interface HtmlToDraftsOptions {
  /** page_number given to every draft (EPUB: the chapter's position in the spine). */
  pageNumber?: number;
  /**
   * Set metadata.languages from `<html lang>` (default true). Pass false when the caller was given
   * languages or wants them detected per element.
   */
  useDeclaredLanguage?: boolean;
  /** Read <header>, <footer> and <nav> page chrome as Header/Footer elements (default true). */
  detectPageChrome?: boolean;
  /** Resolve relative image sources inside a container (EPUB zip, e-mail cid: parts). */
  resolveImage?: ImageResolver;
}

/**
 * HTML text → element drafts in reading order. Used for .html files and reused for e-mail bodies,
 * EPUB chapters, Markdown/RST/Org (rendered to HTML first) and VLM output.
 *
 * Blocks (p, div, li, h1-h6, td of layout tables...) become elements; inline content (span, a, b...)
 * is text inside them. Headings are Titles with category_depth = level - 1; list items are ListItems
 * with category_depth = list nesting; pre is CodeSnippet; address is Address; data tables are Tables
 * with text_as_html; other blocks are classified by the shared text heuristics.
 */
export function htmlToDrafts(html: string, options: HtmlToDraftsOptions = {}): ElementDraft[] {
  const head = html.slice(0, 4096);
  // XHTML (EPUB chapters, inline XBRL) writes empty elements as <div/>; plain HTML parsers would open them.
  const xhtml = /^\s*<\?xml/i.test(head) || /xmlns="http:\/\/www\.w3\.org\/1999\/xhtml"/.test(head);
  const document = parseDocument(limitNesting(html, { html: true }), { recognizeSelfClosing: xhtml });
  const walker = new HtmlWalker(options);
  walker.walk(document.children);
  return walker.finish();
}

type Context =
  | { kind: 'heading'; depth: number }
  | { kind: 'list-item'; depth: number }
  | { kind: 'address' }
  | { kind: 'caption' }
  | { kind: 'chrome'; type: 'Header' | 'Footer' };

interface ExitFrame {
  exit: Element;
  popsContext: boolean;
  leavesList: boolean;
  leavesSection: boolean;
  closesSpans: ('link' | 'emphasis')[];
}

type Frame = ChildNode | ExitFrame;

class HtmlWalker {
  private readonly drafts: ElementDraft[] = [];
  private readonly buffer = new InlineBuffer();
  private readonly contexts: Context[] = [];
  private readonly pendingImages: ElementDraft[] = [];
  private listDepth = 0;
  private contentSectionDepth = 0;
  private chromeDepth = 0;
  private lastHeadingDepth: number | undefined;
  private contentStarted = false;
  private languages: string[] | undefined;
  /** Layout tables being walked (data tables are read whole and never walked). */
  private layoutTableDepth = 0;
  /** Rows already read as part of an orphan-row table. */
  private readonly consumedRows = new Set<Element>();

  constructor(private readonly options: HtmlToDraftsOptions) {}

  walk(roots: ChildNode[]): void {
    const stack: Frame[] = [...roots].reverse();
    while (stack.length > 0) {
      const frame = stack.pop()!;
      if ('exit' in frame) {
        this.leave(frame);
        continue;
      }
      if (isTextNode(frame)) {
        this.buffer.append(frame.data);
        continue;
      }
      if (!isElement(frame)) continue;
      const exit = this.enter(frame);
      if (!exit) continue;
      stack.push(exit);
      for (let index = frame.children.length - 1; index >= 0; index--) stack.push(frame.children[index]!);
    }
  }

  finish(): ElementDraft[] {
    this.flush();
    this.drafts.push(...this.pendingImages.splice(0));
    return this.drafts;
  }

  /** Handle an opening tag; returns the frame to run at its end, or undefined to skip its children. */
  private enter(element: Element): ExitFrame | undefined {
    const name = element.name;
    if (name === 'html') this.readDeclaredLanguage(element);
    if (isSkipped(element)) return undefined;
    switch (name) {
      case 'br':
        this.buffer.lineBreak();
        // Two <br> in a row separate paragraphs in hand-written pages; inside a heading or item they don't.
        if (this.buffer.breaks >= 2 && this.contexts.length === 0) this.flush();
        return undefined;
      case 'img':
        this.addImage(element);
        return undefined;
      case 'pre':
        this.flush();
        this.emitAll(preformattedDrafts(element, this.inChrome()));
        return undefined;
      case 'table':
        this.flush();
        if (!this.readTableElement(element)) return undefined;
        this.layoutTableDepth++;
        break;
      case 'tr':
        // Rows outside any table: a stray end tag (`<table></center><tr>`, common in old pages) closed the
        // table in htmlparser2, where a browser would have ignored it. The run of rows is read as a table.
        if (this.layoutTableDepth === 0) {
          if (this.consumedRows.has(element)) return undefined;
          this.flush();
          const orphanTable = new DomElement('table', {}, siblingRows(element));
          for (const row of orphanTable.children) this.consumedRows.add(row as Element);
          // readTableElement is true for layout: then the rows' cells are read as blocks.
          if (this.readTableElement(orphanTable)) {
            this.walk(
              orphanTable.children.map((row) => new DomElement('div', {}, (row as Element).children)),
            );
          }
          return undefined;
        }
        break;
      case 'code':
        if (this.isCodeBlock(element)) {
          this.flush();
          this.emitAll(preformattedDrafts(element, this.inChrome()));
          return undefined;
        }
        break;
    }
    const exit: ExitFrame = {
      exit: element,
      popsContext: false,
      leavesList: false,
      leavesSection: false,
      closesSpans: [],
    };
    if (BLOCK_TAGS.has(name)) {
      this.flush();
      const context = this.contextFor(element);
      if (context) {
        this.contexts.push(context);
        exit.popsContext = true;
        if (context.kind === 'chrome') this.chromeDepth++;
        if (context.kind === 'heading') this.lastHeadingDepth = context.depth;
      }
      if (LIST_TAGS.has(name)) {
        this.listDepth++;
        exit.leavesList = true;
      }
      if (CONTENT_SECTIONS.has(name)) {
        this.contentSectionDepth++;
        exit.leavesSection = true;
      }
    }
    const href = name === 'a' ? element.attribs.href?.trim() : undefined;
    if (href && !/^javascript:/i.test(href) && this.buffer.openSpan('link', href)) {
      exit.closesSpans.push('link');
    }
    const emphasis = EMPHASIS_TAGS[name] ?? styleEmphasis(element.attribs.style);
    if (emphasis && this.buffer.openSpan('emphasis', emphasis)) exit.closesSpans.push('emphasis');
    return exit;
  }

  private leave(frame: ExitFrame): void {
    for (const span of frame.closesSpans) this.buffer.closeSpan(span);
    if (frame.exit.name === 'table') this.layoutTableDepth--;
    if (!BLOCK_TAGS.has(frame.exit.name)) return;
    this.flush();
    if (frame.popsContext) {
      const context = this.contexts.pop();
      if (context?.kind === 'chrome') this.chromeDepth--;
    }
    if (frame.leavesList) this.listDepth--;
    if (frame.leavesSection) this.contentSectionDepth--;
  }

  private contextFor(element: Element): Context | undefined {
    const name = element.name;
    const level = HEADING_LEVEL[name];
    if (level !== undefined) return { kind: 'heading', depth: level - 1 };
    if (name === 'li') return { kind: 'list-item', depth: Math.max(0, this.listDepth - 1) };
    if (name === 'address') return { kind: 'address' };
    if (name === 'figcaption' || name === 'caption') return { kind: 'caption' };
    const chrome = this.chromeType(element);
    return chrome ? { kind: 'chrome', type: chrome } : undefined;
  }

  /** Page chrome: header/footer/nav (or their ARIA roles) that are not part of an article or section. */
  private chromeType(element: Element): 'Header' | 'Footer' | undefined {
    if (this.options.detectPageChrome === false || this.contentSectionDepth > 0 || this.chromeDepth > 0) {
      return undefined;
    }
    const role = element.attribs.role?.toLowerCase();
    if (element.name === 'header' || role === 'banner') return 'Header';
    if (element.name === 'footer' || role === 'contentinfo') return 'Footer';
    // Navigation before the content is a page header; after it (site maps, "more links"), a footer.
    if (element.name === 'nav' || role === 'navigation') return this.contentStarted ? 'Footer' : 'Header';
    return undefined;
  }

  private inChrome(): 'Header' | 'Footer' | undefined {
    for (let index = this.contexts.length - 1; index >= 0; index--) {
      const context = this.contexts[index]!;
      if (context.kind === 'chrome') return context.type;
    }
    return undefined;
  }

  private readDeclaredLanguage(element: Element): void {
    if (this.options.useDeclaredLanguage === false) return;
    const lang = element.attribs.lang ?? element.attribs['xml:lang'];
    if (!lang) return;
    try {
      this.languages = [toIso6393(lang)];
    } catch {
      // An unknown code in the page is not the caller's error: leave languages to detection.
    }
  }

  /** A <code> alone in a container is a code block (a snippet shown on its own). */
  private isCodeBlock(element: Element): boolean {
    const parent = element.parent as Element | null;
    if (!parent || !isElement(parent) || !CODE_BLOCK_PARENTS.has(parent.name)) return false;
    return parent.children.every(
      (child) => child === element || (isTextNode(child) && child.data.trim() === '') || !isElement(child),
    );
  }

  /** Emits a data table (or a list row); returns true when the table is layout and its cells are walked. */
  private readTableElement(element: Element): boolean {
    const table = readTable(element);
    const kind = tableKind(element, table);
    if (kind === 'layout') return true;
    if (kind === 'list-row') {
      const cells = table.rows.flat().filter((cell) => cell.text !== '');
      const marker = cells[0]!.text;
      const rest = cells
        .slice(1)
        .map((cell) => cell.text)
        .join(' ');
      // Bullets are dropped from item text; numbers ("1.", "(a)") are kept, as for plain-text lists.
      const text = isListMarker(marker) && stripBullet(marker) === '' ? rest : `${marker} ${rest}`;
      this.emit('ListItem', text, { category_depth: this.listDepth });
      return false;
    }
    if (kind === 'data') {
      if (table.caption) this.emit('FigureCaption', table.caption);
      this.emit('Table', tableToText(table.rows), {
        text_as_html: tableToHtml(table.rows, { headerRows: table.headerRows }),
      });
    }
    return false;
  }

  private addImage(element: Element): void {
    const parts = imageParts(element, this.options.resolveImage);
    if (!parts) return;
    const image = this.makeDraft('Image', parts.text, parts.metadata);
    // An image inside a sentence follows that sentence's block rather than cutting it in two.
    if (this.buffer.isEmpty()) this.pushDraft(image);
    else this.pendingImages.push(image);
  }

  /** Turn the text gathered so far into one element, typed by where it stands. */
  private flush(): void {
    const block = this.buffer.take();
    if (block.text !== '') this.emitBlock(block);
    if (this.pendingImages.length > 0) {
      for (const image of this.pendingImages.splice(0)) this.pushDraft(image);
    }
  }

  private emitBlock(block: InlineBlock): void {
    const chrome = this.inChrome();
    const context = this.contexts.at(-1);
    let type: ElementType;
    let text = block.text;
    const metadata: ElementMetadata = {};
    if (chrome) {
      type = chrome;
    } else if (context?.kind === 'heading') {
      type = 'Title';
      metadata.category_depth = context.depth;
    } else if (context?.kind === 'list-item') {
      type = 'ListItem';
      text = stripBullet(text) || text;
      metadata.category_depth = context.depth;
    } else if (context?.kind === 'address') {
      type = 'Address';
    } else if (context?.kind === 'caption') {
      type = 'FigureCaption';
    } else {
      const classified = classifyText(text);
      type = classified.type;
      text = classified.text;
      if (type === 'Title' && !isBoldThroughout(block)) type = 'UncategorizedText';
      if (type === 'Title') metadata.category_depth = Math.min(6, (this.lastHeadingDepth ?? -1) + 1);
      if (type === 'ListItem') metadata.category_depth = Math.max(0, this.listDepth - 1);
    }
    // Removing a bullet shifts the text; link offsets follow it.
    const shift = block.text.length - text.length;
    const links = block.links
      .filter((link) => link.start_index >= shift)
      .map((link) => ({ ...link, start_index: link.start_index - shift }));
    if (links.length > 0) {
      metadata.link_texts = links.map((link) => link.text);
      metadata.link_urls = links.map((link) => link.url);
      metadata.links = links;
    }
    if (block.emphasis.length > 0) {
      metadata.emphasized_text_contents = block.emphasis.map((run) => run.text);
      metadata.emphasized_text_tags = block.emphasis.map((run) => run.tag);
    }
    this.emit(type, text, metadata);
  }

  private emitAll(drafts: ElementDraft[]): void {
    for (const item of drafts) this.emit(item.type, item.text, item.metadata);
  }

  private emit(type: ElementType, text: string, metadata: ElementMetadata = {}): void {
    this.pushDraft(this.makeDraft(type, text, metadata));
  }

  private makeDraft(type: ElementType, text: string, metadata: ElementMetadata): ElementDraft {
    if (this.options.pageNumber !== undefined) metadata.page_number = this.options.pageNumber;
    if (this.languages) metadata.languages = this.languages;
    return draft(type, text, metadata);
  }

  private pushDraft(item: ElementDraft): void {
    if (this.chromeDepth === 0) this.contentStarted = true;
    this.drafts.push(item);
  }
}
