import type { ElementDraft } from '../../elements/element.js';
import { tableToText } from '../../elements/table-html.js';
import { ServiceError } from '../../errors.js';
import type { PartitionLimits } from '../../pipeline/limits.js';
import type { FormatPartitioner } from '../format.js';
import {
  mainDocumentPart,
  openOfficeZip,
  type Relationship,
  readRelationships,
  readXml,
  wantsImagePayloads,
} from '../ooxml/package.js';
import { child, children, isOn, parseXml, path, type XmlElement } from '../ooxml/xml.js';
import type { ZipArchive } from '../ooxml/zip-archive.js';
import { BodyWriter } from './body.js';
import { type PageBreakMode, type ParagraphReaderContext, paragraphText } from './paragraph.js';
import { DocxStyles } from './styles.js';
import { readTable } from './table.js';

/**
 * Word .docx, read straight from its OOXML parts: sections in order, each with its headers first, its
 * body (paragraphs, lists, tables, pictures, text boxes) and its footers last. Page numbers come from
 * Word's rendered page breaks when the file has them (Word writes them on save), otherwise from hard
 * page breaks and section breaks.
 */
export const partition: FormatPartitioner = async ({ data, limits, options }) =>
  partitionDocx(data, limits, { withImagePayloads: wantsImagePayloads(options.extract_image_block_types) });

export interface DocxOptions {
  withImagePayloads: boolean;
}

interface Section {
  blocks: XmlElement[];
  properties: XmlElement | undefined;
}

const HEADER_FOOTER_TYPES: Record<string, string> = {
  default: 'primary',
  first: 'first_page',
  even: 'even_page',
};

export function partitionDocx(
  data: Uint8Array,
  limits: PartitionLimits,
  options: DocxOptions,
): ElementDraft[] {
  const zip = openOfficeZip(data, limits, 'docx');
  const documentPart = mainDocumentPart(zip, 'word/document.xml');
  const documentXml = zip.readText(documentPart);
  if (documentXml === undefined) {
    throw new ServiceError('corrupt_document', 'The docx package has no main document part.');
  }
  const body = path(parseXml(documentXml), 'w:document', 'w:body');
  if (!body) throw new ServiceError('corrupt_document', 'The docx main document has no body.');

  const relationships = readRelationships(zip, documentPart);
  const partOf = (suffix: string) =>
    [...relationships.values()].find((rel) => rel.type.endsWith(suffix) && !rel.external)?.target;
  const styles = new DocxStyles(
    readXml(zip, partOf('/styles') ?? 'word/styles.xml'),
    readXml(zip, partOf('/numbering') ?? 'word/numbering.xml'),
  );
  const settings = readXml(zip, partOf('/settings') ?? 'word/settings.xml');
  const evenAndOddHeaders = isOn(path(settings, 'w:settings', 'w:evenAndOddHeaders'));

  // Word writes w:lastRenderedPageBreak where its layout broke pages; other producers don't.
  const pageBreakMode: PageBreakMode = documentXml.includes('w:lastRenderedPageBreak') ? 'rendered' : 'hard';
  const reader: ParagraphReaderContext = { styles, relationships, pageBreakMode };
  const writer = new BodyWriter({ reader, zip, withImagePayloads: options.withImagePayloads });

  splitSections(body).forEach((section, index) => {
    if (index > 0) writeSectionStartBreaks(writer, section, pageBreakMode);
    const references = headerFooterReferences(section.properties, evenAndOddHeaders);
    for (const reference of references.headers) {
      writeHeaderFooter(writer, zip, relationships, reference, 'Header', reader);
    }
    for (const block of section.blocks) writer.writeBlocks({ name: '', attrs: {}, children: [block] });
    for (const reference of references.footers) {
      writeHeaderFooter(writer, zip, relationships, reference, 'Footer', reader);
    }
  });
  return writer.drafts;
}

/**
 * A section that starts on a new page: with hard breaks, that is one page break here. An odd-page or
 * even-page section may need one more, a blank page, which Word never marks with a rendered break.
 */
function writeSectionStartBreaks(writer: BodyWriter, section: Section, mode: PageBreakMode): void {
  const startType = child(section.properties, 'w:type')?.attrs['w:val'] ?? 'nextPage';
  if (startType === 'continuous' || startType === 'nextColumn') return;
  // In rendered mode the section's first paragraph carries the break to the next page.
  const nextPage = writer.page + 1;
  if (mode === 'hard') writer.pageBreak();
  const blankPageNeeded =
    (startType === 'oddPage' && nextPage % 2 === 0) || (startType === 'evenPage' && nextPage % 2 === 1);
  if (blankPageNeeded) writer.pageBreak();
}

/** A section ends at a paragraph whose properties hold a w:sectPr; the body's own w:sectPr is the last. */
function splitSections(body: XmlElement): Section[] {
  const sections: Section[] = [];
  let blocks: XmlElement[] = [];
  for (const block of children(body)) {
    if (block.name === 'w:sectPr') {
      sections.push({ blocks, properties: block });
      blocks = [];
      continue;
    }
    blocks.push(block);
    const sectionEnd = block.name === 'w:p' ? path(block, 'w:pPr', 'w:sectPr') : undefined;
    if (sectionEnd) {
      sections.push({ blocks, properties: sectionEnd });
      blocks = [];
    }
  }
  if (blocks.length > 0 || sections.length === 0) sections.push({ blocks, properties: undefined });
  return sections;
}

interface Reference {
  relationshipId: string;
  headerFooterType: string;
}

/**
 * The header and footer parts a section defines itself (a section without a reference of some kind
 * continues the previous section's, which was emitted already). First-page and even-page variants apply
 * only when the section (w:titlePg) or the document (w:evenAndOddHeaders) switches them on.
 */
function headerFooterReferences(
  properties: XmlElement | undefined,
  evenAndOddHeaders: boolean,
): { headers: Reference[]; footers: Reference[] } {
  const titlePage = isOn(child(properties, 'w:titlePg'));
  const collect = (name: string): Reference[] => {
    const found: Reference[] = [];
    for (const type of ['default', 'first', 'even']) {
      if (type === 'first' && !titlePage) continue;
      if (type === 'even' && !evenAndOddHeaders) continue;
      const reference = children(properties, name).find((ref) => (ref.attrs['w:type'] ?? 'default') === type);
      const relationshipId = reference?.attrs['r:id'];
      if (relationshipId) found.push({ relationshipId, headerFooterType: HEADER_FOOTER_TYPES[type]! });
    }
    return found;
  };
  return { headers: collect('w:headerReference'), footers: collect('w:footerReference') };
}

/** One Header or Footer element per part: its paragraphs (and table rows) joined by newlines. */
function writeHeaderFooter(
  writer: BodyWriter,
  zip: ZipArchive,
  documentRelationships: ReadonlyMap<string, Relationship>,
  reference: Reference,
  type: 'Header' | 'Footer',
  reader: ParagraphReaderContext,
): void {
  const relationship = documentRelationships.get(reference.relationshipId);
  if (!relationship || relationship.external) return;
  const root = readXml(zip, relationship.target);
  const part = root ? (child(root, 'w:hdr') ?? child(root, 'w:ftr')) : undefined;
  if (!part) return;
  const partReader: ParagraphReaderContext = {
    ...reader,
    relationships: readRelationships(zip, relationship.target),
  };
  const lines: string[] = [];
  const visit = (container: XmlElement) => {
    for (const block of children(container)) {
      if (block.name === 'w:p') lines.push(paragraphText(block, partReader).trim());
      else if (block.name === 'w:tbl')
        lines.push(tableToText(readTable(block, (p) => paragraphText(p, partReader)).rows));
      else if (block.name === 'w:sdt') visit(child(block, 'w:sdtContent') ?? block);
    }
  };
  visit(part);
  const text = lines.filter(Boolean).join('\n');
  if (text !== '') writer.emit(type, text, { header_footer_type: reference.headerFooterType });
}
