import { draft, type ElementDraft } from '../../elements/element.js';
import type { ElementType } from '../../elements/element-types.js';
import type { ElementMetadata, Link } from '../../elements/metadata.js';
import { type TableCell, tableToHtml, tableToText } from '../../elements/table-html.js';
import { ServiceError } from '../../errors.js';
import type { PartitionLimits } from '../../pipeline/limits.js';
import { classifyText, isBulleted, stripBullet } from '../../text/text-type.js';
import type { FormatPartitioner } from '../format.js';
import { imageMimeType, openOfficeZip, readXml, wantsImagePayloads } from '../ooxml/package.js';
import { child, children, findFirst, path, type XmlElement } from '../ooxml/xml.js';
import type { ZipArchive } from '../ooxml/zip-archive.js';

/**
 * OpenDocument text (.odt): content.xml in order. text:h → Title (outline level → depth), text:p →
 * classified text, text:list → ListItem (nesting → depth), table:table → Table (spans kept), frames with
 * text boxes and images; the master page's header and footer from styles.xml → Header and Footer.
 * Pages are counted from the soft page breaks writers record, else from styles that break before a page.
 */
export const partition: FormatPartitioner = async ({ data, limits, options }) =>
  partitionOdt(data, limits, wantsImagePayloads(options.extract_image_block_types));

interface TextStyle {
  bold: boolean;
  italic: boolean;
  breakBefore: boolean;
  parent: string | undefined;
}

export function partitionOdt(
  data: Uint8Array,
  limits: PartitionLimits,
  withImagePayloads: boolean,
): ElementDraft[] {
  const zip = openOfficeZip(data, limits, 'odt');
  const content = path(readXml(zip, 'content.xml'), 'office:document-content');
  const body = path(content, 'office:body', 'office:text');
  if (!body) throw new ServiceError('corrupt_document', 'The odt package has no text body (content.xml).');
  const stylesRoot = path(readXml(zip, 'styles.xml'), 'office:document-styles');
  const styles = new Map<string, TextStyle>();
  for (const group of [path(stylesRoot, 'office:styles'), path(content, 'office:automatic-styles')]) {
    for (const style of children(group, 'style:style')) {
      const text = child(style, 'style:text-properties');
      const paragraph = child(style, 'style:paragraph-properties');
      styles.set(style.attrs['style:name'] ?? '', {
        bold: text?.attrs['fo:font-weight'] === 'bold',
        italic: text?.attrs['fo:font-style'] === 'italic',
        breakBefore: paragraph?.attrs['fo:break-before'] === 'page',
        parent: style.attrs['style:parent-style-name'],
      });
    }
  }
  const writer = new OdtWriter(
    zip,
    styles,
    withImagePayloads,
    findFirst(body, 'text:soft-page-break') !== undefined,
  );
  const masterPage = children(path(stylesRoot, 'office:master-styles'), 'style:master-page')[0];
  writer.writeRunning('Header', child(masterPage, 'style:header'));
  writer.writeBlocks(body, 0);
  writer.writeRunning('Footer', child(masterPage, 'style:footer'));
  return writer.drafts;
}

interface Inline {
  text: string;
  emphasis: { text: string; tag: 'b' | 'i' }[];
  links: Link[];
}

class OdtWriter {
  readonly drafts: ElementDraft[] = [];
  private page = 1;
  private emitted = false;

  constructor(
    private readonly zip: ZipArchive,
    private readonly styles: Map<string, TextStyle>,
    private readonly withImagePayloads: boolean,
    private readonly softBreaks: boolean,
  ) {}

  private emit(type: ElementType, text: string, metadata: ElementMetadata = {}): void {
    this.emitted = true;
    this.drafts.push(draft(type, text, { ...metadata, page_number: this.page }));
  }

  private pageBreak(): void {
    this.page++;
    this.drafts.push(draft('PageBreak', ''));
  }

  private style(name: string | undefined): TextStyle | undefined {
    return name === undefined ? undefined : this.styles.get(name);
  }

  writeRunning(type: 'Header' | 'Footer', element: XmlElement | undefined): void {
    if (!element) return;
    const lines = children(element)
      .filter((block) => block.name === 'text:p' || block.name === 'text:h')
      .map((block) => this.inline(block).text.trim())
      .filter(Boolean);
    if (lines.length > 0) this.emit(type, lines.join('\n'), { header_footer_type: 'primary' });
  }

  writeBlocks(container: XmlElement, listDepth: number): void {
    for (const block of children(container)) {
      switch (block.name) {
        case 'text:h':
          this.writeParagraph(block, {
            kind: 'title',
            depth: Number(block.attrs['text:outline-level'] ?? 1) - 1,
          });
          break;
        case 'text:p':
          this.writeParagraph(block, undefined);
          break;
        case 'text:list':
          for (const item of children(block)) {
            if (item.name !== 'text:list-item' && item.name !== 'text:list-header') continue;
            for (const inner of children(item)) {
              if (inner.name === 'text:list') this.writeBlocks({ ...item, children: [inner] }, listDepth + 1);
              else if (inner.name === 'text:h') {
                // A numbered heading is written as a list item holding a heading.
                const level = Number(inner.attrs['text:outline-level'] ?? 1) - 1;
                this.writeParagraph(inner, { kind: 'title', depth: level });
              } else if (inner.name === 'text:p') {
                this.writeParagraph(inner, { kind: 'list', depth: listDepth });
              } else this.writeBlocks({ ...item, children: [inner] }, listDepth);
            }
          }
          break;
        case 'table:table':
          this.writeTable(block);
          break;
        case 'text:soft-page-break':
          if (this.softBreaks) this.pageBreak();
          break;
        case 'text:section':
        case 'text:index-body':
        case 'text:table-of-content':
        case 'text:alphabetical-index':
          this.writeBlocks(
            block.name === 'text:table-of-content' ? (child(block, 'text:index-body') ?? block) : block,
            listDepth,
          );
          break;
        default:
          break;
      }
    }
  }

  private writeParagraph(
    paragraph: XmlElement,
    role: { kind: 'title' | 'list'; depth: number } | undefined,
  ): void {
    const styleName = paragraph.attrs['text:style-name'];
    if (!this.softBreaks && this.style(styleName)?.breakBefore && this.emitted) this.pageBreak();
    const frames: XmlElement[] = [];
    const inline = this.inline(paragraph, frames);
    const raw = inline.text.trim();
    if (raw !== '' && !(isBulleted(raw) && stripBullet(raw) === '')) {
      const metadata: ElementMetadata = {};
      if (inline.emphasis.length > 0) {
        metadata.emphasized_text_contents = inline.emphasis.map((e) => e.text);
        metadata.emphasized_text_tags = inline.emphasis.map((e) => e.tag);
      }
      if (inline.links.length > 0) {
        metadata.link_urls = inline.links.map((l) => l.url);
        metadata.link_texts = inline.links.map((l) => l.text);
        metadata.links = inline.links;
      }
      const parentStyle = this.style(styleName)?.parent ?? styleName ?? '';
      if (role?.kind === 'title')
        this.emit('Title', raw, { ...metadata, category_depth: Math.max(0, role.depth) });
      else if (role?.kind === 'list') {
        this.emit('ListItem', isBulleted(raw) ? stripBullet(raw) : raw, {
          ...metadata,
          category_depth: role.depth,
        });
      } else if (/^Title$/i.test(parentStyle)) this.emit('Title', raw, { ...metadata, category_depth: 0 });
      else {
        const classified = classifyText(raw);
        this.emit(
          classified.type === 'Title' ? 'UncategorizedText' : classified.type,
          classified.text,
          metadata,
        );
      }
    }
    for (const frame of frames) this.writeFrame(frame);
  }

  /** Text of a paragraph with spans, links, spaces and tabs; frames found inside are collected. */
  private inline(element: XmlElement, frames: XmlElement[] = []): Inline {
    const result: Inline = { text: '', emphasis: [], links: [] };
    const visit = (node: XmlElement, bold: boolean, italic: boolean) => {
      for (const inner of node.children) {
        if (typeof inner === 'string') {
          result.text += inner;
          const trimmed = inner.trim();
          if (trimmed && bold) result.emphasis.push({ text: trimmed, tag: 'b' });
          if (trimmed && italic) result.emphasis.push({ text: trimmed, tag: 'i' });
          continue;
        }
        switch (inner.name) {
          case 'text:s':
            result.text += ' '.repeat(Math.min(1000, Number(inner.attrs['text:c'] ?? 1) || 1));
            break;
          case 'text:tab':
            result.text += '\t';
            break;
          case 'text:line-break':
            result.text += '\n';
            break;
          case 'text:note':
          case 'office:annotation':
            break;
          case 'draw:frame':
            frames.push(inner);
            break;
          case 'text:a': {
            const start = result.text.length;
            visit(inner, bold, italic);
            const url = inner.attrs['xlink:href'];
            const text = result.text.slice(start);
            if (url && text.trim()) result.links.push({ text, url, start_index: start });
            break;
          }
          default: {
            const style = this.style(inner.attrs['text:style-name']);
            visit(inner, bold || !!style?.bold, italic || !!style?.italic);
          }
        }
      }
    };
    visit(element, false, false);
    const shift = result.text.length - result.text.trimStart().length;
    for (const link of result.links) link.start_index = Math.max(0, link.start_index - shift);
    return result;
  }

  private writeFrame(frame: XmlElement): void {
    const textBox = child(frame, 'draw:text-box');
    if (textBox) this.writeBlocks(textBox, 0);
    const image = child(frame, 'draw:image');
    const href = image?.attrs['xlink:href'];
    if (!href) return;
    const description =
      (child(frame, 'svg:desc') ?? child(frame, 'svg:title'))?.children.join('').trim() ?? '';
    const metadata: ElementMetadata = { image_mime_type: imageMimeType(href) };
    if (this.withImagePayloads && this.zip.has(href)) {
      metadata.image_base64 = Buffer.from(this.zip.read(href)!).toString('base64');
    }
    this.emit('Image', description, metadata);
  }

  private writeTable(table: XmlElement): void {
    const rows: TableCell[][] = [];
    let headerRows = 0;
    const readRows = (container: XmlElement, header: boolean) => {
      for (const node of children(container)) {
        if (node.name === 'table:table-header-rows') readRows(node, true);
        else if (node.name === 'table:table-rows' || node.name === 'table:table-row-group')
          readRows(node, header);
        else if (node.name === 'table:table-row') {
          if (header) headerRows++;
          const cells: TableCell[] = [];
          for (const cell of children(node, 'table:table-cell')) {
            const text = children(cell)
              .map((block) => (block.name === 'table:table' ? '' : this.inline(block).text.trim()))
              .filter(Boolean)
              .join('\n');
            const entry: TableCell = { text };
            const colspan = Number(cell.attrs['table:number-columns-spanned'] ?? 1);
            const rowspan = Number(cell.attrs['table:number-rows-spanned'] ?? 1);
            if (colspan > 1) entry.colspan = colspan;
            if (rowspan > 1) entry.rowspan = rowspan;
            cells.push(entry);
          }
          rows.push(cells);
        }
      }
    };
    readRows(table, false);
    const text = tableToText(rows);
    if (text)
      this.emit('Table', text, {
        text_as_html: tableToHtml(rows, { headerRows: headerRows < rows.length ? headerRows : 0 }),
      });
  }
}
