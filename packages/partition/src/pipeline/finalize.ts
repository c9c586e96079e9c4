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
 * and ids. Partitioners never do these themselves, so all formats behave alike. Drafts read back from
 * element JSON skip all of it but the document facts (see GIVEN_ELEMENT below).
 */
export function finalizeElements(
  drafts: ElementDraft[],
  facts: DocumentFacts,
  options: PartitionOptions,
): Element[] {
  const pageOffset = options.starting_page_number - 1;
  const imageTypes = new Set(options.extract_image_block_types.map((type) => type.toLowerCase()));
  const elements: Element[] = [];
  const given: Element[] = [];
  const fresh: Element[] = [];
  for (const [index, draft] of drafts.entries()) {
    const identity = givenIdentity(draft);
    if (identity) {
      // Element JSON read back: as given, only document facts it lacks are filled in.
      const metadata = { ...draft.metadata };
      applyDocumentFacts(metadata, facts);
      const element: Element = { type: draft.type, text: draft.text, metadata, ...identity };
      elements.push(element);
      given.push(element);
      continue;
    }
    if (draft.type === 'PageBreak' && !options.include_page_breaks) continue;
    const metadata = { ...draft.metadata };
    applyDocumentFacts(metadata, facts);
    if (metadata.page_number !== undefined) metadata.page_number += pageOffset;
    if (!options.coordinates) delete metadata.coordinates;
    if (metadata.image_base64 !== undefined && !imageTypes.has(draft.type.toLowerCase())) {
      delete metadata.image_base64;
      delete metadata.image_mime_type;
    }
    const element: Element = { type: draft.type, element_id: `#${index}`, text: draft.text, metadata };
    elements.push(element);
    fresh.push(element);
  }
  setLanguages(fresh, options);
  for (const part of documentParts(fresh)) assignHierarchy(part);
  assignElementIds(fresh, { unique_element_ids: options.unique_element_ids });
  // Given elements keep their ids, unless the caller asked for fresh UUIDs (links follow by position).
  if (options.unique_element_ids) assignElementIds(given, { unique_element_ids: true });
  return elements;
}

/**
 * Runs of consecutive elements from the same embedded document (an e-mail body, then each attachment):
 * sections never reach across them, so an attachment's text is not filed under the e-mail's last title.
 */
function documentParts(elements: Element[]): Element[][] {
  const parts: Element[][] = [];
  let previousKey: string | undefined;
  for (const element of elements) {
    const key = `${element.metadata.filename ?? ''}\u0000${element.metadata.attached_to_filename ?? ''}`;
    if (key !== previousKey || parts.length === 0) parts.push([]);
    parts.at(-1)!.push(element);
    previousKey = key;
  }
  return parts;
}

/**
 * Drafts that a partitioner read back from element JSON (formats/json) carry this mark with the identity
 * they arrived with. finalize keeps such elements as given: id, parent_id, languages, page numbers,
 * coordinates and images untouched, embeddings and record_id kept; only the document facts they lack
 * (filename, filetype...) are filled in. So partitioning the JSON output of a partition gives it back
 * unchanged. A symbol, not a field: it never reaches the output and no input JSON can forge it.
 */
const GIVEN_ELEMENT = Symbol('docsvc.givenElement');

interface GivenIdentity {
  element_id: string;
  embeddings?: number[];
  record_id?: string;
}

type MarkedDraft = ElementDraft & { [GIVEN_ELEMENT]?: GivenIdentity };

/** A draft for an element that is kept as given by finalize (see GIVEN_ELEMENT). */
export function givenElementDraft(element: Element): ElementDraft {
  const identity: GivenIdentity = { element_id: element.element_id };
  if (element.embeddings !== undefined) identity.embeddings = element.embeddings;
  if (element.record_id !== undefined) identity.record_id = element.record_id;
  const marked: MarkedDraft = { type: element.type, text: element.text, metadata: element.metadata };
  marked[GIVEN_ELEMENT] = identity;
  return marked;
}

function givenIdentity(draft: ElementDraft): GivenIdentity | undefined {
  return (draft as MarkedDraft)[GIVEN_ELEMENT];
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
    const own = options.detect_language_per_element
      ? detectLanguages(element.text, { asciiIsEnglish: false })
      : undefined;
    const languages = own ?? documentLanguages;
    if (languages) element.metadata.languages = languages;
  }
}
