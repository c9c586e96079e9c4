import type { Element } from '../elements/element.js';
import type { ElementMetadata, Entities, Link } from '../elements/metadata.js';
import { normalizedOffset } from './element-text.js';

/**
 * How the metadata of the elements of a chunk becomes the chunk's metadata. Declared per field, so a new
 * metadata field needs one line here; a field not listed (other tools' own keys) takes the first value.
 *
 * - first:  the first element's value that is defined (page_number, filename, data_source...).
 * - drop:   meaningless for a chunk (coordinates of one element, parent links, the element's own html...).
 * - concat: lists joined in element order (emphasis and link lists, which pair up by position).
 * - union:  lists joined, each value once, in order of first appearance (languages).
 * - links:  joined with start_index shifted to the element's place in the chunk text.
 * - entities: items and relationships joined, each once.
 */
type Rule = 'first' | 'drop' | 'concat' | 'union' | 'links' | 'entities';

const RULES: Partial<Record<string, Rule>> = {
  filename: 'first',
  file_directory: 'first',
  filetype: 'first',
  last_modified: 'first',
  url: 'first',
  data_source: 'first',
  attached_to_filename: 'first',
  page_number: 'first',
  page_name: 'first',
  coordinates: 'drop',
  parent_id: 'drop',
  category_depth: 'drop',
  text_as_html: 'drop',
  header_footer_type: 'drop',
  is_continuation: 'drop',
  orig_elements: 'drop',
  emphasized_text_contents: 'concat',
  emphasized_text_tags: 'concat',
  link_urls: 'concat',
  link_texts: 'concat',
  links: 'links',
  languages: 'union',
  image_base64: 'drop',
  image_mime_type: 'drop',
  image_url: 'drop',
  detection_class_prob: 'drop',
  detection_origin: 'drop',
  is_extracted: 'drop',
  entities: 'entities',
};

/** Fields a Table or TableChunk keeps from its table (they describe the table itself). */
const TABLE_KEEPS = new Set(['text_as_html', 'image_base64', 'image_mime_type', 'image_url']);

export interface Placed {
  element: Element;
  /** Offset of the element's normalised text in the chunk text. */
  offset: number;
}

/** Metadata of a chunk made of `placed` elements (those without text have no place and give no links). */
export function consolidateMetadata(
  elements: readonly Element[],
  placed: readonly Placed[],
  { table = false }: { table?: boolean } = {},
): ElementMetadata {
  // -- one pass over the elements collects each field's defined values, in element order --
  const valuesByKey = new Map<string, unknown[]>();
  for (const element of elements) {
    for (const key in element.metadata) {
      const value = element.metadata[key];
      if (value === undefined) continue;
      const values = valuesByKey.get(key);
      if (values) values.push(value);
      else valuesByKey.set(key, [value]);
    }
  }
  const result: Record<string, unknown> = {};
  for (const [key, values] of valuesByKey) {
    const rule = table && TABLE_KEEPS.has(key) ? 'first' : (RULES[key] ?? 'first');
    if (rule === 'drop') continue;
    const value = merge(rule, key, values, placed);
    if (value !== undefined) result[key] = value;
  }
  return result as ElementMetadata;
}

function merge(rule: Rule, key: string, values: unknown[], placed: readonly Placed[]): unknown {
  switch (rule) {
    case 'first':
      // -- a copy, so that editing a chunk's metadata never edits the element it came from --
      return typeof values[0] === 'object' && values[0] !== null ? structuredClone(values[0]) : values[0];
    case 'concat': {
      const joined: unknown[] = [];
      for (const value of values) {
        if (Array.isArray(value)) for (const item of value) joined.push(item);
        else joined.push(value);
      }
      return joined;
    }
    case 'union': {
      // -- lists here are short (a few language codes): includes() beats building a Set --
      const joined: unknown[] = [];
      for (const value of values) {
        for (const item of Array.isArray(value) ? value : [value])
          if (!joined.includes(item)) joined.push(item);
      }
      return joined;
    }
    case 'links':
      return shiftedLinks(placed);
    case 'entities':
      return mergeEntities(values as Entities[]);
    default:
      throw new Error(`no merge for ${key}`);
  }
}

function shiftedLinks(placed: readonly Placed[]): Link[] | undefined {
  const links: Link[] = [];
  for (const { element, offset } of placed) {
    for (const link of element.metadata.links ?? []) {
      links.push({ ...link, start_index: offset + normalizedOffset(element, link.start_index) });
    }
  }
  return links.length > 0 ? links : undefined;
}

function mergeEntities(values: Entities[]): Entities {
  const items = new Map<string, Entities['items'][number]>();
  const relationships = new Map<string, Entities['relationships'][number]>();
  for (const value of values) {
    for (const item of value.items ?? []) items.set(JSON.stringify([item.entity, item.type]), item);
    for (const relation of value.relationships ?? []) {
      relationships.set(JSON.stringify([relation.from, relation.relationship, relation.to]), relation);
    }
  }
  return { items: [...items.values()], relationships: [...relationships.values()] };
}

/**
 * Metadata of one piece of a split chunk: links and emphasis that are not in the piece are left out
 * (and links are re-anchored to the piece), so the piece never claims text it does not contain.
 * `start` is the offset of the piece in the chunk text when known (text pieces), undefined for table
 * pieces, whose text is rebuilt from cells and where links are found by their text.
 */
export function metadataForPiece(
  metadata: ElementMetadata,
  pieceText: string,
  start: number | undefined,
): ElementMetadata {
  const result: ElementMetadata = { ...metadata };
  if (metadata.links) {
    const links = metadata.links.flatMap((link): Link[] => {
      if (start === undefined) {
        const index = pieceText.indexOf(link.text);
        return index < 0 ? [] : [{ ...link, start_index: index }];
      }
      const local = link.start_index - start;
      return local >= 0 && local + link.text.length <= pieceText.length
        ? [{ ...link, start_index: local }]
        : [];
    });
    setOrDelete(result, 'links', links);
  }
  filterPairs(result, 'emphasized_text_contents', 'emphasized_text_tags', pieceText);
  filterPairs(result, 'link_texts', 'link_urls', pieceText);
  return result;
}

/** Keep the entries of `textKey` found in the piece, and the entries at the same positions of `pairKey`. */
function filterPairs(metadata: ElementMetadata, textKey: string, pairKey: string, pieceText: string): void {
  const texts = metadata[textKey];
  if (!Array.isArray(texts)) return;
  const pair = metadata[pairKey];
  const keep = texts.map((text) => typeof text === 'string' && pieceText.includes(text));
  setOrDelete(
    metadata,
    textKey,
    texts.filter((_, index) => keep[index]),
  );
  if (Array.isArray(pair) && pair.length === texts.length) {
    setOrDelete(
      metadata,
      pairKey,
      pair.filter((_, index) => keep[index]),
    );
  }
}

function setOrDelete(metadata: ElementMetadata, key: string, list: unknown[]): void {
  if (list.length > 0) metadata[key] = list;
  else delete metadata[key];
}
