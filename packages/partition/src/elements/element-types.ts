/**
 * The complete list of element types the service emits (SPEC 2.5 says "not shown"; this is it).
 * docs/elements.md describes each one; keep the two in step.
 */
export const ELEMENT_TYPES = [
  /** A heading: document title, section header, slide title. `metadata.category_depth` gives its level (0 = top). */
  'Title',
  /** Body prose: one or more sentences. */
  'NarrativeText',
  /** One item of a bulleted or numbered list; the bullet itself is removed from the text. */
  'ListItem',
  /** A table; `text` is its cells as plain text and `metadata.text_as_html` its structure. */
  'Table',
  /** A piece of a table that chunking had to split; `metadata.text_as_html` holds valid rows. */
  'TableChunk',
  /** A picture or figure; with `extract_image_block_types` it carries `metadata.image_base64`. */
  'Image',
  /** Running page header (`metadata.header_footer_type` says which pages when known). */
  'Header',
  /** Running page footer, including footnotes placed in the footer area. */
  'Footer',
  /** A bare page number. */
  'PageNumber',
  /** A page boundary, emitted only with `include_page_breaks`; its text is empty. */
  'PageBreak',
  /** The caption of a figure or table. */
  'FigureCaption',
  /** A mathematical formula. */
  'Formula',
  /** A postal address. */
  'Address',
  /** An e-mail address on its own. */
  'EmailAddress',
  /** Preformatted code. */
  'CodeSnippet',
  /** Text that fits no other type (short fragments, numbers, labels). */
  'UncategorizedText',
  /** A chunk produced by chunking: consecutive elements joined; originals in `metadata.orig_elements`. */
  'CompositeElement',
] as const;

export type ElementType = (typeof ELEMENT_TYPES)[number];

const TYPE_SET: ReadonlySet<string> = new Set(ELEMENT_TYPES);

export function isElementType(value: unknown): value is ElementType {
  return typeof value === 'string' && TYPE_SET.has(value);
}

/** Types whose text is structure rather than prose; chunking never merges them with text. */
export const TABLE_TYPES: ReadonlySet<ElementType> = new Set(['Table', 'TableChunk']);
