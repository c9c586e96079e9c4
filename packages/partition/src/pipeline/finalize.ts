import type { Element, ElementDraft } from '../elements/element.js';
import { assignHierarchy } from '../elements/hierarchy.js';
import { assignElementIds } from '../elements/ids.js';
import type { PartitionOptions } from '../options/partition-options.js';
import { detectLanguages, toIso6393 } from '../text/languages.js';

export interface DocumentFacts {
  filename?: string | undefined;
  file_directory?: string | undefined;
  filetype: string;
  last_modified?: string | undefined;
}

/**
 * The steps every format shares, in order: page breaks kept or dropped, document metadata filled in,
 * page numbers offset, coordinates and images kept only when asked for, languages set, then parent links
 * and ids. Partitioners never do these themselves, so all formats behave alike.
 */
export function finalizeElements(
  drafts: ElementDraft[],
  facts: DocumentFacts,
  options: PartitionOptions,
): Element[] {
  const pageOffset = options.starting_page_number - 1;
  const imageTypes = new Set(options.extract_image_block_types.map((type) => type.toLowerCase()));
  const elements: Element[] = [];
  for (const [index, draft] of drafts.entries()) {
    if (draft.type === 'PageBreak' && !options.include_page_breaks) continue;
    const metadata = { ...draft.metadata };
    applyDocumentFacts(metadata, facts);
    if (metadata.page_number !== undefined) metadata.page_number += pageOffset;
    if (!options.coordinates) delete metadata.coordinates;
    if (metadata.image_base64 !== undefined && !imageTypes.has(draft.type.toLowerCase())) {
      delete metadata.image_base64;
      delete metadata.image_mime_type;
    }
    elements.push({ type: draft.type, element_id: `#${index}`, text: draft.text, metadata });
  }
  setLanguages(elements, options);
  assignHierarchy(elements);
  return assignElementIds(elements, { unique_element_ids: options.unique_element_ids });
}

/** Fill document-wide fields a draft does not carry itself (nested attachments carry their own). */
export function applyDocumentFacts(metadata: Element['metadata'], facts: DocumentFacts): void {
  if (metadata.filename === undefined && facts.filename !== undefined) metadata.filename = facts.filename;
  if (metadata.file_directory === undefined && facts.file_directory !== undefined) {
    metadata.file_directory = facts.file_directory;
  }
  if (metadata.filetype === undefined) metadata.filetype = facts.filetype;
  if (metadata.last_modified === undefined && facts.last_modified !== undefined) {
    metadata.last_modified = facts.last_modified;
  }
}

/**
 * Languages: the user's list (normalised to ISO 639-3) when given; otherwise detected once for the
 * document, or per element with detect_language_per_element (short elements inherit the document's).
 */
function setLanguages(elements: Element[], options: PartitionOptions): void {
  const given = options.languages?.filter((code) => code.toLowerCase() !== 'auto');
  if (given && given.length > 0) {
    const codes = [...new Set(given.map(toIso6393))];
    for (const element of elements) element.metadata.languages ??= codes;
    return;
  }
  const textual = elements.filter(
    (element) => element.text.trim() !== '' && element.metadata.languages === undefined,
  );
  if (textual.length === 0) return;
  const documentLanguages = detectLanguages(textual.map((element) => element.text).join('\n'));
  for (const element of textual) {
    const own = options.detect_language_per_element ? detectLanguages(element.text) : undefined;
    const languages = own ?? documentLanguages;
    if (languages) element.metadata.languages = languages;
  }
}
