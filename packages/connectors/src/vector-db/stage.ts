import type { Element } from '@docsvc/partition';
import type { RecordDescriptor, StagedRecord } from '../contract.js';
import { ConnectorError } from '../errors.js';
import { flattenObject } from '../staging/index.js';
import { CONNECTOR } from './client.js';
import type { VarcharOverflowPolicy } from './config.js';
import { primaryKeys } from './keys.js';
import { type CollectionLayout, PRIMARY_FIELD, RECORD_ID_FIELD, VECTOR_FIELD } from './layout.js';
import { MAX_JSON_BYTES, utf8Length } from './text-limits.js';
import { BLOB_FIELDS, fitValue, OMIT, type ValueContext } from './values.js';

/**
 * Elements of one record → rows of the collection (SPEC 2.7): element_id (a primary key derived from
 * (record_id, element_id), see keys.ts), record_id, text, type, embeddings, and the metadata flattened with
 * "_" (coordinates_points, data_source_record_locator_protocol…). Only fields of the schema are written,
 * the rest goes into the dynamic $meta field when the collection has one. Every value is converted to its
 * field's type and checked against its limits here, so a record either stages completely or fails before
 * anything of it is written.
 */

export type VectorDbRow = Record<string, unknown> & { element_id: string };

export interface VectorDbStaged extends StagedRecord<VectorDbRow> {
  /** What was changed or left out (truncate policy, elements without embeddings). */
  warnings: string[];
  /** Elements not written: blank text and no embeddings. */
  skipped: number;
}

/** Element fields that are not metadata; they win over flattened metadata keys of the same name. */
const ELEMENT_FIELDS = new Set([PRIMARY_FIELD, RECORD_ID_FIELD, 'text', 'type', VECTOR_FIELD]);

/** How many problems an error message lists before "and N more". */
const LISTED = 5;

export function stageRecord(
  elements: readonly Element[],
  record: RecordDescriptor,
  layout: CollectionLayout,
  policy: VarcharOverflowPolicy,
): VectorDbStaged {
  const recordId = record.identifier;
  const issues: string[] = [];
  const warnings = new Map<string, { message: string; count: number; first: string }>();
  const vector = layout.byName.get(VECTOR_FIELD)!;

  // Elements without a vector: blank ones (page breaks, empty cells) carry nothing to search and are left
  // out, as unstructured-ingest does; one with text but no vector means embeddings were not generated,
  // which is an error rather than a silent loss — unless the vector field accepts null.
  const kept: Element[] = [];
  const missingVectors: string[] = [];
  let skipped = 0;
  for (const element of elements) {
    const hasVector = Array.isArray(element.embeddings) && element.embeddings.length > 0;
    if (hasVector || vector.nullable) kept.push(element);
    else if (element.text.trim() === '') skipped++;
    else missingVectors.push(element.element_id);
  }
  if (missingVectors.length > 0) {
    throw new ConnectorError(
      CONNECTOR,
      'schema',
      `record "${record.display_name}": ${missingVectors.length} of ${elements.length} elements have text but no embeddings (${listOf(missingVectors)}); the vector field "${VECTOR_FIELD}" is required: generate embeddings (embedding_provider) for this destination. Nothing of this record was written.`,
    );
  }

  const primary = layout.byName.get(PRIMARY_FIELD)!;
  const keys = primaryKeys(
    recordId,
    kept.map((element) => element.element_id),
    primary.maxLength!,
  );
  const rows: VectorDbRow[] = [];
  kept.forEach((element, index) => {
    const label = `element ${element.element_id} (#${index + 1})`;
    const context: ValueContext = {
      policy,
      issue: (field, message) => issues.push(`${label}: field "${field}": ${message}`),
      warn: (field, message) => {
        const entry = warnings.get(`${field}\u0000${message}`);
        if (entry) entry.count++;
        else
          warnings.set(`${field}\u0000${message}`, {
            message: `${field}: ${message}`,
            count: 1,
            first: label,
          });
      },
    };
    const row = stageElement(element, recordId, keys[index]!, layout, context);
    if (row) rows.push(row);
  });

  if (issues.length > 0) {
    const more = issues.length > LISTED ? `; and ${issues.length - LISTED} more` : '';
    throw new ConnectorError(
      CONNECTOR,
      'schema',
      `record "${record.display_name}" does not fit collection "${layout.collection}": ${issues.slice(0, LISTED).join('; ')}${more}. Nothing of this record was written.`,
    );
  }
  const messages = [...warnings.values()].map(
    ({ message, count, first }) => `${message} (${count} element${count === 1 ? '' : 's'}, first: ${first})`,
  );
  if (skipped > 0) messages.push(`${skipped} element(s) with blank text and no embeddings left out`);
  return { record, rows, warnings: messages, skipped };
}

function stageElement(
  element: Element,
  recordId: string,
  key: string,
  layout: CollectionLayout,
  context: ValueContext,
): VectorDbRow | undefined {
  const values: Record<string, unknown> = flattenObject(element.metadata as Record<string, unknown>, '_');
  values.record_id = recordId;
  values.text = element.text;
  values.type = element.type;
  if (element.embeddings && element.embeddings.length > 0) values.embeddings = element.embeddings;
  else delete values.embeddings;

  const row: Record<string, unknown> = { [PRIMARY_FIELD]: key };
  let failed = false;
  for (const field of layout.fields) {
    if (field.name === PRIMARY_FIELD || field.functionOutput || field.autoId || field.kind === 'other')
      continue;
    const value = values[field.name];
    if (value === undefined || value === null) {
      if (field.nullable) row[field.name] = null;
      else if (!field.hasDefault) {
        context.issue(field.name, `no value, and the field is neither nullable nor has a default`);
        failed = true;
      }
      continue;
    }
    if (field.kind === 'float_vector') {
      if (!checkVector(field.name, field.dim, value, context)) failed = true;
      else row[field.name] = value;
      continue;
    }
    const fitted = fitValue(field, value, context);
    if (fitted === OMIT) failed = true;
    else row[field.name] = fitted;
  }
  if (layout.dynamic) addDynamicValues(row, values, layout, context);
  return failed ? undefined : (row as VectorDbRow);
}

function checkVector(name: string, dim: number | undefined, value: unknown, context: ValueContext): boolean {
  if (!Array.isArray(value)) {
    context.issue(name, 'embeddings are not a list of numbers');
    return false;
  }
  if (dim !== undefined && value.length !== dim) {
    context.issue(
      name,
      `the embedding has ${value.length} dimensions, the collection's FLOAT_VECTOR has ${dim} (use an embedding model of dimension ${dim} or a collection of dimension ${value.length})`,
    );
    return false;
  }
  for (const item of value) {
    if (typeof item !== 'number' || !Number.isFinite(item)) {
      context.issue(name, `the embedding holds a value that is not a finite number (${String(item)})`);
      return false;
    }
  }
  return true;
}

/**
 * Metadata without a field of its own, into the dynamic $meta JSON field (limited to 64 KiB). Blobs are
 * never put there: an image or the gzip of the original elements would pass the limit and is useless
 * outside a field declared for it.
 */
function addDynamicValues(
  row: Record<string, unknown>,
  values: Record<string, unknown>,
  layout: CollectionLayout,
  context: ValueContext,
): void {
  const dynamic: [string, unknown][] = [];
  for (const [name, value] of Object.entries(values)) {
    if (layout.byName.has(name) || ELEMENT_FIELDS.has(name) || name === '$meta') continue;
    if (BLOB_FIELDS.has(name)) {
      context.warn(name, 'left out: the collection has no field for it (dynamic fields do not take blobs)');
      continue;
    }
    dynamic.push([name, value]);
  }
  let size = utf8Length(JSON.stringify(Object.fromEntries(dynamic)));
  if (size > MAX_JSON_BYTES) {
    if (context.policy === 'error') {
      context.issue('$meta', `the dynamic fields take ${size} bytes of JSON, more than ${MAX_JSON_BYTES}`);
      return;
    }
    // Drop the largest values until the rest fits.
    dynamic.sort((a, b) => utf8Length(JSON.stringify(b[1])) - utf8Length(JSON.stringify(a[1])));
    while (size > MAX_JSON_BYTES && dynamic.length > 0) {
      const [name] = dynamic.shift()!;
      context.warn(name, `left out of the dynamic fields, which are limited to ${MAX_JSON_BYTES} bytes`);
      size = utf8Length(JSON.stringify(Object.fromEntries(dynamic)));
    }
  }
  for (const [name, value] of dynamic) row[name] = value;
}

function listOf(ids: readonly string[]): string {
  const shown = ids.slice(0, LISTED).join(', ');
  return ids.length > LISTED ? `${shown} and ${ids.length - LISTED} more` : shown;
}
