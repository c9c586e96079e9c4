import { createRequire } from 'node:module';
import { getAuthString, type MilvusClient } from '@zilliz/milvus2-sdk-node';
import type { VectorDbConnection } from './client.js';
import type { CollectionLayout, FieldInfo } from './layout.js';
import type { VectorDbRow } from './stage.js';

/**
 * The Upsert request built from staged rows, sent on the SDK's own gRPC channel pool.
 *
 * Why not `client.upsert(rows)`: on 384-dimension rows the SDK spent 250–350 µs of client CPU per row
 * (docs/performance.md, bench-vector-db): it re-reads the schema, converts rows to columns generically,
 * and its retry interceptor JSON-serialises every request (vectors included) for a debug log line even
 * when debug logging is off. Staged rows are already converted and checked against the schema, so the
 * columns (Milvus's FieldData) are built here directly — the vector column by hand, see
 * encodeFloatVectorEntry — and the call goes out with a pass-through interceptor in place of the SDK's,
 * carrying the same authorization and database metadata: about 55 µs a row, staging included.
 * Connection, channels, TLS and the protocol definitions remain the SDK's; an integration test checks
 * that both ways store the same values for every field type.
 */

type GrpcModule = typeof import('@grpc/grpc-js');

/** The gRPC library instance the SDK uses (Metadata must come from the same one). */
const grpc: GrpcModule = createRequire(createRequire(import.meta.url).resolve('@zilliz/milvus2-sdk-node'))(
  '@grpc/grpc-js',
);

/** A column of FieldData as milvus.proto's schema.FieldData (proto-loader: keepCase, oneofs). */
interface FieldData {
  type: string;
  field_name: string;
  is_dynamic: boolean;
  scalars?: Record<string, unknown>;
  vectors?: Record<string, unknown>;
  valid_data: boolean[];
}

const SCALAR_KEY: Record<string, string> = {
  varchar: 'string_data',
  bool: 'bool_data',
  int8: 'int_data',
  int16: 'int_data',
  int32: 'int_data',
  int64: 'long_data',
  float: 'float_data',
  double: 'double_data',
};

function column(field: FieldInfo, values: unknown[]): FieldData {
  // Null values are sent as valid_data false and left out of the data (the compact form Milvus reads).
  const nullable = field.nullable || field.hasDefault;
  const valid = nullable ? values.map((value) => value !== null && value !== undefined) : [];
  const present = nullable ? values.filter((_, index) => valid[index]) : values;
  const base = { type: field.dataType, field_name: field.name, is_dynamic: false, valid_data: valid };
  switch (field.kind) {
    case 'float_vector': {
      const dim = field.dim ?? (present[0] as number[] | undefined)?.length ?? 0;
      const flat = new Array<number>(present.length * dim);
      let offset = 0;
      for (const vector of present as number[][]) for (let i = 0; i < dim; i++) flat[offset++] = vector[i]!;
      return { ...base, vectors: { dim, float_vector: { data: flat } } };
    }
    case 'json':
      return {
        ...base,
        scalars: { json_data: { data: present.map((value) => Buffer.from(JSON.stringify(value))) } },
      };
    case 'array': {
      const key = SCALAR_KEY[field.elementKind ?? ''] ?? 'string_data';
      return {
        ...base,
        scalars: {
          array_data: {
            element_type: field.elementDataType,
            data: present.map((items) => ({ [key]: { data: items } })),
          },
        },
      };
    }
    default:
      return { ...base, scalars: { [SCALAR_KEY[field.kind]!]: { data: present } } };
  }
}

/** The columns of an Upsert request for `rows` staged against `layout`, but those named in `except`. */
export function buildFieldsData(
  layout: CollectionLayout,
  rows: readonly VectorDbRow[],
  except: ReadonlySet<string> = new Set(),
): FieldData[] {
  const fields = layout.fields.filter(
    (f) => !f.functionOutput && !f.autoId && f.kind !== 'other' && !except.has(f.name),
  );
  const columns = fields.map((field) =>
    column(
      field,
      rows.map((row) => row[field.name]),
    ),
  );
  if (layout.dynamic) {
    const dynamic = rows.map((row) => {
      const extra: Record<string, unknown> = {};
      for (const [name, value] of Object.entries(row)) if (!layout.byName.has(name)) extra[name] = value;
      return Buffer.from(JSON.stringify(extra));
    });
    columns.push({
      type: 'JSON',
      field_name: '$meta',
      is_dynamic: true,
      scalars: { json_data: { data: dynamic } },
      valid_data: [],
    });
  }
  return columns;
}

export interface MutationAnswer {
  status: { error_code?: string | number; code?: number; reason?: string };
  err_index?: number[];
  upsert_cnt?: string | number;
}

/**
 * A non-nullable FLOAT_VECTOR column, encoded by hand as one `fields_data` entry (field 5) of the request.
 * protobuf.js writes a packed float field one value at a time, with an allocation per value: 384 of them a
 * row, most of the encoding time and garbage. Here the floats go into one Float32Array and are copied as
 * bytes. Field numbers are milvus.proto's (schema.proto): FieldData {type 1, field_name 2, vectors 4},
 * VectorField {dim 1, float_vector 2}, FloatArray {data 1, packed}; DataType FloatVector is 101. Repeated
 * entries may appear anywhere in a message, so this entry is simply appended to the rest of the request.
 */
export function encodeFloatVectorEntry(name: string, dim: number, vectors: readonly number[][]): Buffer {
  const floats = new Float32Array(vectors.length * dim);
  for (const [row, vector] of vectors.entries()) floats.set(vector, row * dim);
  const floatBytes = Buffer.from(floats.buffer, floats.byteOffset, floats.byteLength);
  const floatArray = Buffer.concat([key(1, LEN), varint(floatBytes.length), floatBytes]);
  const vectorField = Buffer.concat([
    key(1, VARINT),
    varint(dim),
    key(2, LEN),
    varint(floatArray.length),
    floatArray,
  ]);
  const nameBytes = Buffer.from(name, 'utf8');
  const fieldData = Buffer.concat([
    key(1, VARINT),
    varint(FLOAT_VECTOR),
    key(2, LEN),
    varint(nameBytes.length),
    nameBytes,
    key(4, LEN),
    varint(vectorField.length),
    vectorField,
  ]);
  return Buffer.concat([key(5, LEN), varint(fieldData.length), fieldData]);
}

const VARINT = 0;
const LEN = 2;
const FLOAT_VECTOR = 101;
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

function key(field: number, wireType: number): Buffer {
  return varint((field << 3) | wireType);
}

function varint(value: number): Buffer {
  const bytes: number[] = [];
  let rest = value;
  while (rest > 0x7f) {
    bytes.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  bytes.push(rest);
  return Buffer.from(bytes);
}

interface MethodDefinition {
  path: string;
  requestSerialize(request: unknown): Buffer;
  responseDeserialize(bytes: Buffer): MutationAnswer;
}

interface ServiceClient {
  constructor: { service: Record<string, MethodDefinition> };
  makeUnaryRequest(
    path: string,
    serialize: (request: unknown) => Buffer,
    deserialize: (bytes: Buffer) => MutationAnswer,
    request: unknown,
    metadata: InstanceType<GrpcModule['Metadata']>,
    options: { deadline: Date; interceptors: unknown[] },
    callback: (error: Error | null, answer?: MutationAnswer) => void,
  ): void;
}

/** Send one Upsert of `rows` on the SDK's channel pool. */
export async function sendUpsert(
  client: MilvusClient,
  connection: VectorDbConnection,
  collection: string,
  layout: CollectionLayout,
  rows: readonly VectorDbRow[],
): Promise<MutationAnswer> {
  // Big-endian machines (none we know of runs Node) take the generic path.
  const vector = layout.fields.find((f) => f.kind === 'float_vector' && !f.nullable && f.dim !== undefined);
  const handEncoded = vector && LITTLE_ENDIAN ? vector : undefined;
  const request = {
    db_name: connection.db_name,
    collection_name: collection,
    partition_name: '',
    fields_data: buildFieldsData(layout, rows, new Set(handEncoded ? [handEncoded.name] : [])),
    hash_keys: [],
    num_rows: rows.length,
  };
  const metadata = new grpc.Metadata();
  metadata.set('dbname', connection.db_name);
  const auth = getAuthString({
    username: connection.user ?? '',
    password: connection.password ?? '',
    token: connection.token ?? '',
  });
  if (auth) metadata.set('authorization', auth);
  const service = (await client.channelPool.acquire()) as unknown as ServiceClient;
  try {
    const method = service.constructor.service.Upsert!;
    const serialize = (message: unknown): Buffer => {
      const rest = method.requestSerialize(message);
      if (!handEncoded) return rest;
      const vectors = rows.map((row) => row[handEncoded.name] as number[]);
      return Buffer.concat([rest, encodeFloatVectorEntry(handEncoded.name, handEncoded.dim!, vectors)]);
    };
    return await new Promise<MutationAnswer>((resolve, reject) => {
      service.makeUnaryRequest(
        method.path,
        serialize,
        (bytes) => method.responseDeserialize(bytes),
        request,
        metadata,
        {
          deadline: new Date(Date.now() + connection.timeout_ms),
          // Call interceptors replace the channel's (the SDK's logging/retry one).
          interceptors: [(options: unknown, next: (options: unknown) => unknown) => next(options)],
        },
        (error, answer) => (error || !answer ? reject(error) : resolve(answer)),
      );
    });
  } finally {
    await client.channelPool.release(service as never);
  }
}
