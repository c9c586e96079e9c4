import { gzipSync, unzipSync } from 'node:zlib';
import { ServiceError } from '../errors.js';
import { type Element, elementListSchema } from './element.js';
import { METADATA_FIELDS } from './metadata.js';

/**
 * The one place elements become bytes and back: JSON (the API's array), NDJSON, CSV, and the
 * base64(gzip(JSON)) form used by chunking's `orig_elements`. Every route uses these functions.
 */

const METADATA_ORDER = new Map<string, number>(METADATA_FIELDS.map((name, index) => [name, index]));

/** Element as a plain object with keys in wire order: type, element_id, text, metadata, embeddings, record_id. */
export function elementToDict(element: Element): Record<string, unknown> {
  const dict: Record<string, unknown> = {
    type: element.type,
    element_id: element.element_id,
    text: element.text,
    metadata: orderMetadata(element.metadata),
  };
  if (element.embeddings !== undefined) dict.embeddings = element.embeddings;
  if (element.record_id !== undefined) dict.record_id = element.record_id;
  return dict;
}

function orderMetadata(metadata: Record<string, unknown>): Record<string, unknown> {
  const keys = Object.keys(metadata).filter((key) => metadata[key] !== undefined);
  keys.sort((a, b) => (METADATA_ORDER.get(a) ?? 1e6) - (METADATA_ORDER.get(b) ?? 1e6));
  const ordered: Record<string, unknown> = {};
  for (const key of keys) ordered[key] = metadata[key];
  return ordered;
}

/** JSON array of elements; `indent` 2 gives the files `service-ingest` writes. */
export function elementsToJson(elements: readonly Element[], indent?: number): string {
  return JSON.stringify(elements.map(elementToDict), null, indent);
}

/** Parse and validate a JSON array of elements. Throws `corrupt_document` naming the first bad element. */
export function elementsFromJson(json: string): Element[] {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    throw new ServiceError('corrupt_document', `Invalid JSON: ${(error as Error).message}`, { cause: error });
  }
  return elementsFromValue(value);
}

/** Validate an already-parsed value as a list of elements. */
export function elementsFromValue(value: unknown): Element[] {
  const result = elementListSchema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue ? issue.path.join('.') : '';
    throw new ServiceError(
      'corrupt_document',
      `Not a list of elements: ${where ? `${where}: ` : ''}${issue?.message ?? ''}`,
    );
  }
  return result.data as Element[];
}

export function elementsToNdjson(elements: readonly Element[]): string {
  return elements.map((element) => `${JSON.stringify(elementToDict(element))}\n`).join('');
}

export function elementsFromNdjson(text: string): Element[] {
  const values: unknown[] = [];
  for (const [index, line] of text.split(/\r?\n/).entries()) {
    if (line.trim() === '') continue;
    try {
      values.push(JSON.parse(line));
    } catch (error) {
      throw new ServiceError('corrupt_document', `Invalid JSON on line ${index + 1}`, { cause: error });
    }
  }
  return elementsFromValue(values);
}

/**
 * base64(gzip(JSON array)): the compact form of `metadata.orig_elements`. Node's native zlib: on the hot
 * path of chunking it is about 3× faster than a JavaScript implementation.
 */
export function elementsToBase64Gzip(elements: readonly Element[]): string {
  return gzipSync(elementsToJson(elements)).toString('base64');
}

/** Reads our gzip form and also the zlib (deflate) form other tools write into `orig_elements`. */
export function elementsFromBase64Gzip(encoded: string): Element[] {
  let json: string;
  try {
    json = unzipSync(Buffer.from(encoded, 'base64')).toString('utf8');
  } catch (error) {
    throw new ServiceError('corrupt_document', 'orig_elements is not base64-encoded gzip or zlib data', {
      cause: error,
    });
  }
  return elementsFromJson(json);
}

/**
 * Flatten nested metadata into one level, joining keys with `joiner`. Arrays stay values.
 * Used for CSV columns ("_") and by destinations (engine_a/engine_b "-", vector_db "_").
 */
export function flattenObject(
  value: Record<string, unknown>,
  joiner: string,
  prefix = '',
  out: Record<string, unknown> = {},
): Record<string, unknown> {
  for (const [key, child] of Object.entries(value)) {
    if (child === undefined) continue;
    const name = prefix ? `${prefix}${joiner}${key}` : key;
    if (child !== null && typeof child === 'object' && !Array.isArray(child)) {
      flattenObject(child as Record<string, unknown>, joiner, name, out);
    } else {
      out[name] = child;
    }
  }
  return out;
}

/**
 * CSV with columns type, element_id, text, then every flattened metadata field that occurs
 * (canonical order first, then first-seen order). Arrays and objects are written as JSON.
 */
export function elementsToCsv(elements: readonly Element[]): string {
  const rows = elements.map((element) => ({
    type: element.type,
    element_id: element.element_id,
    text: element.text,
    ...flattenObject(orderMetadata(element.metadata), '_'),
    ...(element.embeddings ? { embeddings: element.embeddings } : {}),
  }));
  const columns: string[] = ['type', 'element_id', 'text'];
  const seen = new Set(columns);
  for (const row of rows) {
    for (const key of Object.keys(row)) {
      if (!seen.has(key)) {
        seen.add(key);
        columns.push(key);
      }
    }
  }
  const lines = [columns.map(csvField).join(',')];
  for (const row of rows) {
    lines.push(columns.map((column) => csvField((row as Record<string, unknown>)[column])).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

function csvField(value: unknown): string {
  if (value === undefined || value === null) return '';
  const text =
    typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Plain text of a document: element texts joined by blank lines (empty texts skipped). */
export function elementsToText(elements: readonly Element[]): string {
  return elements
    .map((element) => element.text)
    .filter((text) => text.trim() !== '')
    .join('\n\n');
}
