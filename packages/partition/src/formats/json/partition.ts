import { draft, type ElementDraft, elementSchema } from '../../elements/element.js';
import { isElementType } from '../../elements/element-types.js';
import { ServiceError } from '../../errors.js';
import { givenElementDraft } from '../../pipeline/finalize.js';
import { decodeText } from '../../text/decode.js';
import type { FormatPartitioner } from '../format.js';

/**
 * JSON and NDJSON (docs/formats.md states these rules for users):
 *
 * 1. Element JSON, the output of a partition (an array of objects each with a known `type` and a string
 *    `text`; NDJSON: one such object per line), is read back as elements. Elements that carry an
 *    `element_id` are kept exactly as given (id, parent_id, metadata, embeddings; see GIVEN_ELEMENT in
 *    pipeline/finalize.ts), so partition(JSON output) = that output. Elements without an id are new
 *    elements of this document: their metadata is kept and ids, languages and parents are assigned.
 * 2. Any other JSON is data, partitioned the way the reference system does it: an array of objects gives
 *    one UncategorizedText per object, anything else one UncategorizedText for the whole value; the text
 *    is the value pretty-printed (2-space JSON), so keys stay next to their values for search. NDJSON
 *    gives one element per line. Empty values ({}, [], null, "") give no element.
 *    An element-shaped array whose metadata does not validate is also treated as data, so valid JSON
 *    never fails.
 * 3. Text that is not valid JSON is a `corrupt_document` error naming the position.
 */
export const partition: FormatPartitioner = async ({ data, fileType, options }) => {
  const text = decodeText(data, options.encoding).text.replace(/^\uFEFF/, '');
  if (fileType.id === 'ndjson') {
    const values = parseLines(text);
    return elementDrafts(values) ?? keepSourceWhenTooDeep(text, () => values.flatMap(dataDrafts));
  }
  if (text.trim() === '') return [];
  const value = parseJson(text);
  return (
    (Array.isArray(value) ? elementDrafts(value) : undefined) ??
    keepSourceWhenTooDeep(text, () => valueDrafts(value))
  );
};

/**
 * JSON.parse reads any depth, but JSON.stringify recurses and overflows the stack on values nested a few
 * thousand levels deep (hostile input). Such a document is kept as one element with its source text.
 */
function keepSourceWhenTooDeep(source: string, drafts: () => ElementDraft[]): ElementDraft[] {
  try {
    return drafts();
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return [draft('UncategorizedText', source.trim())];
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ServiceError('corrupt_document', `Invalid JSON: ${(error as Error).message}`, { cause: error });
  }
}

function parseLines(text: string): unknown[] {
  const values: unknown[] = [];
  for (const [index, line] of text.split(/\r?\n/).entries()) {
    if (line.trim() === '') continue;
    try {
      values.push(JSON.parse(line));
    } catch (error) {
      throw new ServiceError(
        'corrupt_document',
        `Invalid JSON on line ${index + 1}: ${(error as Error).message}`,
        {
          cause: error,
        },
      );
    }
  }
  return values;
}

const draftSchema = elementSchema.partial({ element_id: true });

function isElementShaped(item: unknown): boolean {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return false;
  const record = item as Record<string, unknown>;
  return isElementType(record.type) && typeof record.text === 'string';
}

/** Drafts for element JSON, or undefined when the items are not (all valid) elements. */
function elementDrafts(items: readonly unknown[]): ElementDraft[] | undefined {
  if (items.length === 0 || !items.every(isElementShaped)) return undefined;
  const drafts: ElementDraft[] = [];
  for (const item of items) {
    const parsed = draftSchema.safeParse(item);
    if (!parsed.success) return undefined;
    const { element_id, ...rest } = parsed.data;
    if (element_id !== undefined) drafts.push(givenElementDraft({ ...rest, element_id }));
    else drafts.push(draft(rest.type, rest.text, rest.metadata));
  }
  return drafts;
}

/** Arbitrary JSON: one element per object of a top-level array of objects, else one for the value. */
function valueDrafts(value: unknown): ElementDraft[] {
  const isObject = (item: unknown) => item !== null && typeof item === 'object' && !Array.isArray(item);
  if (Array.isArray(value) && value.length > 0 && value.every(isObject)) return value.flatMap(dataDrafts);
  return dataDrafts(value);
}

function dataDrafts(value: unknown): ElementDraft[] {
  const empty =
    value === null ||
    value === '' ||
    (Array.isArray(value) && value.length === 0) ||
    (typeof value === 'object' && value !== null && Object.keys(value).length === 0);
  return empty ? [] : [draft('UncategorizedText', JSON.stringify(value, null, 2))];
}
