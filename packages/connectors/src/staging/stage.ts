import type { Element } from '@docsvc/partition';
import { ConnectorError } from '../errors.js';
import { type FlatRecord, flattenObject } from './flatten.js';
import { recordKeys } from './record-keys.js';

/**
 * One element as a destination row (SPEC 2.7): the required fields element_id, record_id and text, the
 * recommended type, embeddings when they were generated, and the metadata flattened with the target's
 * joiner. Targets that keep metadata nested under one field (engine_a, engine_b) store `metadata` as is;
 * targets that want it at the top level (vector_db) spread it.
 */
export interface ElementRow {
  element_id: string;
  /** The source record's identifier (SPEC 2.5), the same for every element of the record. */
  record_id: string;
  text: string;
  type: string;
  embeddings?: number[];
  metadata: FlatRecord;
}

export interface KeyedRow<Row> {
  /** Deterministic record key from (record_id, element_id, occurrence): see record-keys.ts. */
  key: string;
  row: Row;
}

export interface StageOptions {
  /** "-" for engine_a/engine_b, "_" for vector_db. */
  joiner: string;
}

export function stageElementRows(
  elements: readonly Element[],
  recordId: string,
  options: StageOptions,
): KeyedRow<ElementRow>[] {
  const keys = recordKeys(
    recordId,
    elements.map((element) => element.element_id),
  );
  return elements.map((element, index) => {
    const row: ElementRow = {
      element_id: element.element_id,
      record_id: recordId,
      text: element.text,
      type: element.type,
      metadata: flattenObject(element.metadata as Record<string, unknown>, options.joiner),
    };
    if (element.embeddings && element.embeddings.length > 0) row.embeddings = element.embeddings;
    return { key: keys[index]!, row };
  });
}

/**
 * The embedding dimension of a record's rows: undefined when none has embeddings. Rows of different
 * dimensions cannot go into one vector field, so they are a `schema` error of the named connector.
 */
export function embeddingDimension(
  rows: readonly { embeddings?: number[] }[],
  connector: string,
): number | undefined {
  let dimension: number | undefined;
  for (const row of rows) {
    const length = row.embeddings?.length;
    if (length === undefined) continue;
    if (dimension === undefined) dimension = length;
    else if (length !== dimension) {
      throw new ConnectorError(
        connector,
        'schema',
        `elements carry embeddings of different dimensions (${dimension} and ${length})`,
      );
    }
  }
  return dimension;
}
