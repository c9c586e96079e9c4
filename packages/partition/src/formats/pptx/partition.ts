import { draft, type ElementDraft } from '../../elements/element.js';
import type { ElementType } from '../../elements/element-types.js';
import type { ElementMetadata } from '../../elements/metadata.js';
import { tableToHtml, tableToText } from '../../elements/table-html.js';
import type { PartitionLimits } from '../../pipeline/limits.js';
import { classifyText, isBulleted, stripBullet } from '../../text/text-type.js';
import type { FormatPartitioner } from '../format.js';
import {
  imageMimeType,
  mainDocumentPart,
  openOfficeZip,
  type Relationship,
  readRelationships,
  readXml,
  requireXml,
  wantsImagePayloads,
} from '../ooxml/package.js';
import { child, children, path } from '../ooxml/xml.js';
import type { ZipArchive } from '../ooxml/zip-archive.js';
import { PlaceholderPositions, readShapeTree, type SlideItem } from './shapes.js';
import { type DrawingParagraph, readTextBody } from './text.js';

/**
 * PowerPoint .pptx: slides in presentation order, page_number = slide number, a PageBreak between
 * slides. Title placeholders → Title; paragraphs of content placeholders (bulleted by the master's
 * body style unless switched off) and explicitly bulleted paragraphs → ListItem with their outline
 * level as depth; other text is classified; tables → Table; pictures → Image; speaker notes (with
 * include_slide_notes) → NarrativeText after the slide's content.
 */
export const partition: FormatPartitioner = async ({ data, limits, options }) =>
  partitionPptx(data, limits, {
    includeNotes: options.include_slide_notes,
    withImagePayloads: wantsImagePayloads(options.extract_image_block_types),
  });

export interface PptxOptions {
  includeNotes: boolean;
  withImagePayloads: boolean;
}

const TITLE_PLACEHOLDERS = new Set(['title', 'ctrTitle']);
/** Placeholders whose paragraphs are bullets unless the master or the paragraph says otherwise. */
const BULLETED_PLACEHOLDERS = new Set(['body', 'obj']);

export function partitionPptx(
  data: Uint8Array,
  limits: PartitionLimits,
  options: PptxOptions,
): ElementDraft[] {
  const zip = openOfficeZip(data, limits, 'pptx');
  const presentationPart = mainDocumentPart(zip, 'ppt/presentation.xml');
  const presentation = requireXml(zip, presentationPart, 'pptx');
  const presentationRels = readRelationships(zip, presentationPart);
  const slideParts = children(path(presentation, 'p:presentation', 'p:sldIdLst'), 'p:sldId')
    .map((slideId) => presentationRels.get(slideId.attrs['r:id'] ?? '')?.target)
    .filter((part): part is string => part !== undefined && zip.has(part));

  const layouts = new LayoutCache(zip);
  const drafts: ElementDraft[] = [];
  slideParts.forEach((slidePart, index) => {
    if (index > 0) drafts.push(draft('PageBreak', ''));
    const slide = new SlideWriter(zip, slidePart, index + 1, layouts, options);
    drafts.push(...slide.write());
  });
  return drafts;
}

interface LayoutInfo {
  placeholders: PlaceholderPositions;
  /** Per outline level: whether the master's body style shows a bullet. */
  bodyBullets: boolean[];
}

/** Layout and master facts shared by many slides, read once each. */
class LayoutCache {
  private readonly layouts = new Map<string, LayoutInfo>();

  constructor(private readonly zip: ZipArchive) {}

  forSlide(slideRels: ReadonlyMap<string, Relationship>): LayoutInfo {
    const layoutPart = findTarget(slideRels, '/slideLayout') ?? '';
    let info = this.layouts.get(layoutPart);
    if (info) return info;
    const placeholders = new PlaceholderPositions();
    let bodyBullets: boolean[] = new Array(9).fill(true);
    if (layoutPart) {
      placeholders.add(path(readXml(this.zip, layoutPart), 'p:sldLayout', 'p:cSld', 'p:spTree'));
      const masterPart = findTarget(readRelationships(this.zip, layoutPart), '/slideMaster');
      const master = masterPart ? path(readXml(this.zip, masterPart), 'p:sldMaster') : undefined;
      placeholders.add(path(master, 'p:cSld', 'p:spTree'));
      const bodyStyle = path(master, 'p:txStyles', 'p:bodyStyle');
      if (bodyStyle) {
        bodyBullets = bodyBullets.map((_, level) => {
          const levelProperties = child(bodyStyle, `a:lvl${level + 1}pPr`);
          return !child(levelProperties, 'a:buNone') && !!levelProperties;
        });
      }
    }
    info = { placeholders, bodyBullets };
    this.layouts.set(layoutPart, info);
    return info;
  }
}

function findTarget(
  relationships: ReadonlyMap<string, Relationship>,
  typeSuffix: string,
): string | undefined {
  for (const rel of relationships.values())
    if (rel.type.endsWith(typeSuffix) && !rel.external) return rel.target;
  return undefined;
}

class SlideWriter {
  private readonly drafts: ElementDraft[] = [];
  private readonly relationships: Map<string, Relationship>;

  constructor(
    private readonly zip: ZipArchive,
    private readonly slidePart: string,
    private readonly pageNumber: number,
    private readonly layouts: LayoutCache,
    private readonly options: PptxOptions,
  ) {
    this.relationships = readRelationships(zip, slidePart);
  }

  write(): ElementDraft[] {
    const slide = readXml(this.zip, this.slidePart);
    const layout = this.layouts.forSlide(this.relationships);
    const items = readShapeTree(
      path(slide, 'p:sld', 'p:cSld', 'p:spTree'),
      this.relationships,
      layout.placeholders,
    );
    for (const item of items) this.writeItem(item, layout);
    if (this.options.includeNotes) this.writeNotes();
    return this.drafts;
  }

  private emit(type: ElementType, text: string, metadata: ElementMetadata = {}): void {
    this.drafts.push(draft(type, text, { ...metadata, page_number: this.pageNumber }));
  }

  private writeItem(item: SlideItem, layout: LayoutInfo): void {
    if (item.kind === 'table') {
      const text = tableToText(item.rows);
      if (text)
        this.emit('Table', text, { text_as_html: tableToHtml(item.rows, { headerRows: item.headerRows }) });
      return;
    }
    if (item.kind === 'picture') {
      this.writePicture(item.relationshipId, item.description);
      return;
    }
    for (const paragraph of item.paragraphs) this.writeParagraph(paragraph, item.placeholderType, layout);
  }

  private writeParagraph(
    paragraph: DrawingParagraph,
    placeholderType: string | undefined,
    layout: LayoutInfo,
  ): void {
    const raw = paragraph.text.trim();
    if (raw === '') return;
    const metadata = paragraphMetadata(paragraph);
    if (placeholderType && TITLE_PLACEHOLDERS.has(placeholderType)) {
      this.emit('Title', raw, { ...metadata, category_depth: 0 });
      return;
    }
    if (placeholderType === 'ftr' || placeholderType === 'sldNum') {
      this.emit(placeholderType === 'ftr' ? 'Footer' : 'PageNumber', raw, metadata);
      return;
    }
    const inheritedBullet =
      paragraph.bullet === undefined &&
      placeholderType !== undefined &&
      BULLETED_PLACEHOLDERS.has(placeholderType) &&
      (layout.bodyBullets[paragraph.level] ?? true);
    if (paragraph.bullet === 'char' || paragraph.bullet === 'number' || inheritedBullet || isBulleted(raw)) {
      const text = isBulleted(raw) ? stripBullet(raw) : raw;
      if (text) this.emit('ListItem', text, { ...metadata, category_depth: paragraph.level });
      return;
    }
    const classified = classifyText(raw);
    const depth =
      classified.type === 'Title' ? 1 : classified.type === 'ListItem' ? paragraph.level : undefined;
    this.emit(classified.type, classified.text, { ...metadata, category_depth: depth });
  }

  private writePicture(relationshipId: string, description: string): void {
    const relationship = this.relationships.get(relationshipId);
    const metadata: ElementMetadata = {};
    if (relationship && !relationship.external) {
      metadata.image_mime_type = imageMimeType(relationship.target);
      if (this.options.withImagePayloads) {
        const bytes = this.zip.read(relationship.target);
        if (bytes) metadata.image_base64 = Buffer.from(bytes).toString('base64');
      }
    }
    this.emit('Image', description, metadata);
  }

  /** The notes page's body placeholder holds the speaker notes; its other shapes repeat the slide. */
  private writeNotes(): void {
    const notesPart = findTarget(this.relationships, '/notesSlide');
    if (!notesPart) return;
    const notes = readXml(this.zip, notesPart);
    const notesRels = readRelationships(this.zip, notesPart);
    for (const shape of children(path(notes, 'p:notes', 'p:cSld', 'p:spTree'), 'p:sp')) {
      if (path(shape, 'p:nvSpPr', 'p:nvPr', 'p:ph')?.attrs.type !== 'body') continue;
      for (const paragraph of readTextBody(child(shape, 'p:txBody'), notesRels)) {
        const text = paragraph.text.trim();
        if (text) this.emit('NarrativeText', text, paragraphMetadata(paragraph));
      }
    }
  }
}

function paragraphMetadata(paragraph: DrawingParagraph): ElementMetadata {
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
  return metadata;
}
