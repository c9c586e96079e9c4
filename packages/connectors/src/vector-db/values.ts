import type { VarcharOverflowPolicy } from './config.js';
import type { FieldInfo, FieldKind } from './layout.js';
import { fitsUtf8, MAX_JSON_BYTES, truncateUtf8, utf8Length } from './text-limits.js';

/**
 * One value → the type of its field, within the field's limits. Conversions follow what elements carry:
 * booleans become "true"/"false" in a VARCHAR (is_extracted, VARCHAR 5), lists and objects become JSON
 * text in a VARCHAR, numbers are rounded into integer fields (a PDF page is 595.28 points wide, SPEC 2.7
 * stores INT32), a single string becomes a one-item ARRAY.
 *
 * Limits (max_length, max_capacity, JSON size) are checked here, before anything is sent: under
 * varchar_overflow=error an overflow is an `issue` (the record fails and nothing of it is written); under
 * truncate the value is cut and a `warning` says so. Blobs (image_base64, orig_elements) are never cut, a cut
 * blob being unusable: they are left out (null) with a warning, or are an issue when the field is required.
 */

/** Fields that hold encoded blobs: cutting them would store garbage. */
export const BLOB_FIELDS: ReadonlySet<string> = new Set(['image_base64', 'orig_elements']);

/** Fields whose value identifies rows: a cut value could make two records share rows. */
const IDENTITY_FIELDS: ReadonlySet<string> = new Set(['element_id', 'record_id']);

const INTEGER_RANGES: Partial<Record<FieldKind, [number, number]>> = {
  int8: [-128, 127],
  int16: [-32_768, 32_767],
  int32: [-2_147_483_648, 2_147_483_647],
  int64: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
};

export interface ValueContext {
  policy: VarcharOverflowPolicy;
  /** A problem that fails the record. */
  issue(field: string, message: string): void;
  /** A change made under the truncate policy. */
  warn(field: string, message: string): void;
}

/** Marker for "write nothing for this key": a nullable field left null, or a value that failed. */
export const OMIT = Symbol('omit');

/** Convert `value` (never null/undefined) for `field`; OMIT when it cannot be stored. */
export function fitValue(field: FieldInfo, value: unknown, context: ValueContext): unknown {
  if (field.kind === 'array') return fitArray(field, value, context);
  const converted = convertScalar(field.kind, value);
  if (converted === INVALID) {
    context.issue(field.name, `a ${describe(value)} cannot be stored in ${field.typeName} "${field.name}"`);
    return OMIT;
  }
  if (field.kind === 'varchar' && field.maxLength !== undefined)
    return fitVarchar(field, converted as string, context);
  if (field.kind === 'json') return fitJson(field, converted, context);
  return converted;
}

function fitVarchar(field: FieldInfo, value: string, context: ValueContext): unknown {
  const limit = field.maxLength!;
  if (fitsUtf8(value, limit)) return value;
  const length = utf8Length(value);
  const overflow = `is ${length} bytes long, more than the ${limit} of VARCHAR "${field.name}"`;
  if (context.policy === 'error' || IDENTITY_FIELDS.has(field.name)) {
    const why = IDENTITY_FIELDS.has(field.name)
      ? ' (never cut: it identifies rows; widen the field)'
      : ' (varchar_overflow=error; "truncate" would cut it)';
    context.issue(field.name, `the value ${overflow}${why}`);
    return OMIT;
  }
  if (BLOB_FIELDS.has(field.name)) return dropBlob(field, `its value ${overflow}`, context);
  context.warn(field.name, `values cut to ${limit} bytes (VARCHAR max_length)`);
  return truncateUtf8(value, limit);
}

function dropBlob(field: FieldInfo, why: string, context: ValueContext): unknown {
  if (field.nullable) {
    context.warn(field.name, `left empty because ${why} (a cut blob would be unusable)`);
    return null;
  }
  context.issue(field.name, `${why}; a blob is never cut and the field is not nullable`);
  return OMIT;
}

function fitJson(field: FieldInfo, value: unknown, context: ValueContext): unknown {
  const size = utf8Length(JSON.stringify(value));
  if (size <= MAX_JSON_BYTES) return value;
  const overflow = `its JSON is ${size} bytes, more than the ${MAX_JSON_BYTES} Milvus allows in JSON "${field.name}"`;
  if (context.policy === 'error') {
    context.issue(field.name, `${overflow} (varchar_overflow=error)`);
    return OMIT;
  }
  return dropBlob(field, overflow, context);
}

function fitArray(field: FieldInfo, value: unknown, context: ValueContext): unknown {
  let items = Array.isArray(value) ? value : [value];
  const capacity = field.maxCapacity;
  if (capacity !== undefined && items.length > capacity) {
    if (context.policy === 'error') {
      context.issue(
        field.name,
        `${items.length} items, more than the capacity ${capacity} of ARRAY "${field.name}" (varchar_overflow=error)`,
      );
      return OMIT;
    }
    context.warn(field.name, `lists cut to their first ${capacity} items (ARRAY max_capacity)`);
    items = items.slice(0, capacity);
  }
  const elementKind = field.elementKind ?? 'other';
  const result: unknown[] = [];
  for (const item of items) {
    if (item === null || item === undefined) continue;
    const converted = convertScalar(elementKind, item);
    if (converted === INVALID) {
      context.issue(field.name, `a ${describe(item)} cannot be an item of ${field.typeName} "${field.name}"`);
      return OMIT;
    }
    if (elementKind === 'varchar' && field.maxLength !== undefined) {
      const fitted = fitVarchar(
        { ...field, kind: 'varchar', typeName: field.typeName },
        converted as string,
        context,
      );
      if (fitted === OMIT) return OMIT;
      result.push(fitted);
    } else result.push(converted);
  }
  return result;
}

const INVALID = Symbol('invalid');

function convertScalar(kind: FieldKind, value: unknown): unknown {
  switch (kind) {
    case 'varchar':
      if (typeof value === 'string') return value;
      if (typeof value === 'boolean' || typeof value === 'number' || typeof value === 'bigint')
        return String(value);
      return JSON.stringify(value);
    case 'bool':
      if (typeof value === 'boolean') return value;
      if (typeof value === 'string' && /^(true|false)$/i.test(value.trim()))
        return value.trim().toLowerCase() === 'true';
      if (value === 0 || value === 1) return value === 1;
      return INVALID;
    case 'int8':
    case 'int16':
    case 'int32':
    case 'int64': {
      const number = toNumber(value);
      if (number === undefined) return INVALID;
      const rounded = Math.round(number);
      const [low, high] = INTEGER_RANGES[kind]!;
      return rounded < low || rounded > high ? INVALID : rounded;
    }
    case 'float':
    case 'double': {
      const number = toNumber(value);
      return number === undefined ? INVALID : number;
    }
    case 'json':
      return value;
    default:
      return INVALID;
  }
}

function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string' && value.trim() !== '') {
    const number = Number(value);
    return Number.isFinite(number) ? number : undefined;
  }
  return undefined;
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'list';
  if (value === null) return 'null';
  if (typeof value === 'string') return `string "${value.length > 40 ? `${value.slice(0, 40)}…` : value}"`;
  if (typeof value === 'number') return `number ${value}`;
  return typeof value;
}
