import type { FieldSchema, MilvusClient } from '@zilliz/milvus2-sdk-node';
import { ConnectorError } from '../errors.js';
import { CONNECTOR, ensureSuccess, toConnectorError } from './client.js';

/**
 * A collection's schema as the staging step needs it: each field's kind, limits and nullability. Read with
 * describeCollection before any write, so that values are converted and checked here rather than refused
 * by the server half-way through a record.
 */

export type FieldKind =
  | 'varchar'
  | 'bool'
  | 'int8'
  | 'int16'
  | 'int32'
  | 'int64'
  | 'float'
  | 'double'
  | 'json'
  | 'array'
  | 'float_vector'
  /** Any type the service never writes (binary/sparse vectors, geometry...). */
  | 'other';

export interface FieldInfo {
  name: string;
  kind: FieldKind;
  /** The server's type name (VarChar, Int32, FloatVector, Array<VarChar>...), for messages. */
  typeName: string;
  /** The DataType name as on the wire (VarChar, Array...), and an ARRAY's element DataType name. */
  dataType: string;
  elementDataType?: string;
  /** VARCHAR: max_length; ARRAY of VARCHAR: the max_length of each element, when the server reports it. */
  maxLength?: number;
  /** ARRAY: max_capacity. */
  maxCapacity?: number;
  /** ARRAY: kind of the elements. */
  elementKind?: FieldKind;
  /** FLOAT_VECTOR: dimension. */
  dim?: number;
  nullable: boolean;
  hasDefault: boolean;
  primary: boolean;
  autoId: boolean;
  /** Filled by a server-side function (BM25 output...): never written by clients. */
  functionOutput: boolean;
}

export interface CollectionLayout {
  collection: string;
  fields: FieldInfo[];
  byName: ReadonlyMap<string, FieldInfo>;
  /** enable_dynamic_field: keys outside the schema go into the hidden $meta JSON field. */
  dynamic: boolean;
}

/** The fields the destination relies on (SPEC 2.7). */
export const PRIMARY_FIELD = 'element_id';
export const VECTOR_FIELD = 'embeddings';
export const RECORD_ID_FIELD = 'record_id';
export const TEXT_FIELD = 'text';

/** Smallest primary key length that holds a derived key (see keys.ts). */
export const MIN_PRIMARY_KEY_LENGTH = 32;

const KIND_BY_TYPE: Record<string, FieldKind> = {
  VarChar: 'varchar',
  String: 'varchar',
  Bool: 'bool',
  Int8: 'int8',
  Int16: 'int16',
  Int32: 'int32',
  Int64: 'int64',
  Float: 'float',
  Double: 'double',
  JSON: 'json',
  Array: 'array',
  FloatVector: 'float_vector',
};

function numberParam(value: unknown): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const number = Number(value);
  return Number.isFinite(number) ? number : undefined;
}

export function fieldInfo(field: FieldSchema): FieldInfo {
  const typeName = String(field.data_type);
  const kind = KIND_BY_TYPE[typeName] ?? 'other';
  const info: FieldInfo = {
    name: field.name,
    kind,
    typeName,
    dataType: typeName,
    nullable: field.nullable === true,
    hasDefault: field.default_value !== undefined && field.default_value !== null,
    primary: field.is_primary_key === true,
    autoId: field.autoID === true,
    functionOutput: field.is_function_output === true,
  };
  const maxLength = numberParam(field.max_length);
  if (maxLength !== undefined) info.maxLength = maxLength;
  const maxCapacity = numberParam(field.max_capacity);
  if (maxCapacity !== undefined) info.maxCapacity = maxCapacity;
  const dim = numberParam(field.dim);
  if (dim !== undefined) info.dim = dim;
  if (kind === 'array') {
    const elementName = String(field.element_type ?? '');
    info.elementKind = KIND_BY_TYPE[elementName] ?? 'other';
    info.elementDataType = elementName;
    info.typeName = `Array<${elementName}>`;
  }
  return info;
}

export function layoutFromFields(
  collection: string,
  fields: readonly FieldSchema[],
  dynamic: boolean,
): CollectionLayout {
  const infos = fields.map(fieldInfo);
  return { collection, fields: infos, byName: new Map(infos.map((f) => [f.name, f])), dynamic };
}

/** describeCollection → layout; a missing database or collection is a `not_found` ConnectorError. */
export async function readLayout(
  client: MilvusClient,
  collection: string,
  database: string,
): Promise<CollectionLayout> {
  let described: Awaited<ReturnType<MilvusClient['describeCollection']>>;
  try {
    described = await client.describeCollection({ collection_name: collection });
  } catch (error) {
    throw toConnectorError(error, `cannot read collection "${collection}"`);
  }
  const status = described.status;
  if (status.code === 100 || /CollectionNotExists/i.test(String(status.error_code))) {
    throw new ConnectorError(
      CONNECTOR,
      'not_found',
      `collection "${collection}" does not exist in database "${database}"; create it with the SPEC 2.7 schema (npm run vector-db:create -- --uri … --collection-name ${collection} --dimension <n>)`,
    );
  }
  if (status.code === 800 || /database\b.*\b(does not exist|not found)/i.test(status.reason ?? '')) {
    throw new ConnectorError(CONNECTOR, 'not_found', `database "${database}" does not exist`);
  }
  ensureSuccess(status, `cannot read collection "${collection}"`, 'unknown');
  return layoutFromFields(
    collection,
    described.schema.fields,
    described.schema.enable_dynamic_field === true,
  );
}

export interface LayoutReview {
  /** Reasons the destination cannot write to this collection. */
  problems: string[];
  /** Fields that will make a record fail when its elements lack them (non-nullable, no default). */
  requiredOptional: string[];
}

/** Fields the staging step always fills. */
const ALWAYS_WRITTEN = new Set([PRIMARY_FIELD, VECTOR_FIELD, RECORD_ID_FIELD, TEXT_FIELD, 'type']);

/**
 * What the destination needs from the schema (SPEC 2.7): element_id a VARCHAR primary key the client sets,
 * embeddings a FLOAT_VECTOR (of the data's dimension when it is known), record_id and text VARCHARs.
 */
export function reviewLayout(layout: CollectionLayout, dimension?: number): LayoutReview {
  const problems: string[] = [];
  const field = (name: string) => layout.byName.get(name);
  const primary = layout.fields.find((f) => f.primary);
  if (!primary || primary.name !== PRIMARY_FIELD) {
    problems.push(
      `the primary key must be the VARCHAR field "${PRIMARY_FIELD}"${primary ? ` (it is "${primary.name}")` : ''}`,
    );
  } else {
    if (primary.kind !== 'varchar')
      problems.push(`"${PRIMARY_FIELD}" must be VARCHAR (it is ${primary.typeName})`);
    if (primary.autoId)
      problems.push(`"${PRIMARY_FIELD}" must not be auto_id: the destination sets its keys`);
    if ((primary.maxLength ?? 0) < MIN_PRIMARY_KEY_LENGTH)
      problems.push(`"${PRIMARY_FIELD}" needs max_length ≥ ${MIN_PRIMARY_KEY_LENGTH} (SPEC 2.7: 200)`);
  }
  const vector = field(VECTOR_FIELD);
  if (!vector) problems.push(`the vector field "${VECTOR_FIELD}" (FLOAT_VECTOR) is missing`);
  else if (vector.kind !== 'float_vector')
    problems.push(`"${VECTOR_FIELD}" must be FLOAT_VECTOR (it is ${vector.typeName})`);
  else if (dimension !== undefined && vector.dim !== dimension)
    problems.push(
      `"${VECTOR_FIELD}" has dimension ${vector.dim} but the embeddings have ${dimension}: use a collection of dimension ${dimension} or an embedding model of dimension ${vector.dim}`,
    );
  for (const name of [RECORD_ID_FIELD, TEXT_FIELD]) {
    const info = field(name);
    if (!info) problems.push(`the VARCHAR field "${name}" is missing`);
    else if (info.kind !== 'varchar') problems.push(`"${name}" must be VARCHAR (it is ${info.typeName})`);
  }
  for (const info of layout.fields) {
    if (ALWAYS_WRITTEN.has(info.name) || info.functionOutput || info.autoId) continue;
    if (info.kind === 'other' && !info.nullable && !info.hasDefault)
      problems.push(
        `field "${info.name}" (${info.typeName}) is required but the service never writes that type`,
      );
  }
  const requiredOptional = layout.fields
    .filter(
      (f) =>
        !ALWAYS_WRITTEN.has(f.name) &&
        !f.functionOutput &&
        !f.autoId &&
        f.kind !== 'other' &&
        !f.nullable &&
        !f.hasDefault,
    )
    .map((f) => f.name);
  return { problems, requiredOptional };
}

/** Fail unless the collection is loaded (Milvus serves queries, searches and filtered deletes only then). */
export async function ensureLoaded(client: MilvusClient, collection: string): Promise<void> {
  let answer: Awaited<ReturnType<MilvusClient['getLoadState']>>;
  try {
    answer = await client.getLoadState({ collection_name: collection });
  } catch (error) {
    throw toConnectorError(error, `cannot read the load state of "${collection}"`);
  }
  ensureSuccess(answer.status, `cannot read the load state of "${collection}"`, 'unknown');
  const state = String(answer.state);
  if (state === 'LoadStateLoaded') return;
  const detail = state === 'LoadStateLoading' ? 'is still loading' : 'is not loaded';
  throw new ConnectorError(
    CONNECTOR,
    'schema',
    `collection "${collection}" ${detail}; load it (loadCollection) after creating its vector index`,
  );
}
