import { z } from 'zod';
import { type FieldIssue, invalidOption, ServiceError } from '../errors.js';

/**
 * A tiny declarative layer over zod. Each option is declared ONCE with its name (snake_case, as on the
 * wire), kind, default and description; from that declaration come:
 * - the zod schema the library validates with (and the OpenAPI/JSON schema generated from it),
 * - string coercion for the CLI and multipart forms (`parseOptionStrings`),
 * - the CLI flags (`--kebab-case`, built in @docsvc/ingest) and, later, UI forms.
 */

export type FieldKind =
  | 'string'
  | 'enum'
  | 'boolean'
  | 'integer'
  | 'number'
  | 'string_list'
  | 'integer_list'
  | 'json';

export interface FieldSpec {
  kind: FieldKind;
  description: string;
  default?: unknown;
  /** Allowed values of an enum. */
  values?: readonly string[];
  min?: number;
  max?: number;
  /** Exact number of items of a list. */
  length?: number;
  /** A credential: redacted in logs and API responses, never part of cache keys. */
  secret?: boolean;
  /** Environment variable that supplies the default on the CLI. */
  env?: string;
  /** Other names accepted for this option on the wire and the CLI (e.g. a legacy name). */
  aliases?: readonly string[];
  /** The option still works but users should move on; says to what. */
  deprecated?: string;
  /** The option must be given (connection settings such as a path or an index name). */
  required?: boolean;
  /** Short flag letter for the CLI. */
  short?: string;
  /** Placeholder shown in --help, e.g. `<path>`. */
  placeholder?: string;
}

export interface Field<T> {
  readonly spec: FieldSpec;
  readonly zod: z.ZodType<T>;
}

type Opts = Omit<FieldSpec, 'kind' | 'values' | 'default'>;

function make<T>(spec: FieldSpec, base: z.ZodType): Field<T> {
  let schema: z.ZodType = base.describe(spec.description);
  if (spec.default !== undefined) schema = (schema as z.ZodType).default(spec.default as never);
  else if (!spec.required) schema = schema.optional();
  return { spec, zod: schema as z.ZodType<T> };
}

function bounded(schema: z.ZodNumber, options: Opts): z.ZodNumber {
  let result = schema;
  if (options.min !== undefined) result = result.min(options.min);
  if (options.max !== undefined) result = result.max(options.max);
  return result;
}

/** A field's output type: the value type when a default is declared, else possibly undefined. */
type Out<O, T> = O extends { default: T } ? T : O extends { required: true } ? T : T | undefined;

export const field = {
  string<O extends Opts & { default?: string }>(options: O): Field<Out<O, string>> {
    return make({ kind: 'string', ...options }, z.string());
  },
  enum<const V extends readonly [string, ...string[]], O extends Opts & { default?: V[number] }>(
    values: V,
    options: O,
  ): Field<Out<O, V[number]>> {
    return make({ kind: 'enum', values, ...options }, z.enum(values));
  },
  boolean<O extends Opts & { default?: boolean }>(options: O): Field<Out<O, boolean>> {
    return make({ kind: 'boolean', ...options }, z.boolean());
  },
  integer<O extends Opts & { default?: number }>(options: O): Field<Out<O, number>> {
    return make({ kind: 'integer', ...options }, bounded(z.number().int(), options));
  },
  number<O extends Opts & { default?: number }>(options: O): Field<Out<O, number>> {
    return make({ kind: 'number', ...options }, bounded(z.number(), options));
  },
  stringList<O extends Opts & { default?: string[] }>(options: O): Field<Out<O, string[]>> {
    let schema = z.array(z.string());
    if (options.length !== undefined) schema = schema.length(options.length);
    return make({ kind: 'string_list', ...options }, schema);
  },
  integerList<O extends Opts & { default?: number[] }>(options: O): Field<Out<O, number[]>> {
    let schema = z.array(z.number().int());
    if (options.length !== undefined) schema = schema.length(options.length);
    return make({ kind: 'integer_list', ...options }, schema);
  },
  json<O extends Opts & { default?: Record<string, unknown> }>(
    options: O,
  ): Field<Out<O, Record<string, unknown>>> {
    return make({ kind: 'json', ...options }, z.record(z.string(), z.unknown()));
  },
};

export type FieldsShape = Record<string, Field<unknown>>;
/** Any option set, for code that handles option sets generically (CLI flags, forms, redaction). */
export type AnyOptionSet = OptionSet<FieldsShape>;

type FieldValue<F> = F extends Field<infer T> ? T : never;
/** Options as the library receives them: every field optional. */
export type OptionsInput<S extends FieldsShape> = { [K in keyof S]?: Exclude<FieldValue<S[K]>, undefined> };
/** Options after validation: defaults applied. */
export type OptionsOutput<S extends FieldsShape> = { [K in keyof S]: FieldValue<S[K]> };

export interface OptionSet<S extends FieldsShape> {
  readonly shape: S;
  readonly fields: readonly { name: string; spec: FieldSpec }[];
  readonly schema: z.ZodObject<{ [K in keyof S]: S[K]['zod'] }>;
  /** Validate library input; unknown keys are rejected so typos do not pass silently. */
  parse(input: unknown): OptionsOutput<S>;
}

export function defineOptions<S extends FieldsShape>(shape: S): OptionSet<S> {
  const zodShape = Object.fromEntries(Object.entries(shape).map(([name, f]) => [name, f.zod])) as {
    [K in keyof S]: S[K]['zod'];
  };
  const schema = z.strictObject(zodShape);
  const fields = Object.entries(shape).map(([name, f]) => ({ name, spec: f.spec }));
  return {
    shape,
    fields,
    schema,
    parse(input: unknown) {
      const result = schema.safeParse(input ?? {});
      if (!result.success) throw invalidOptions(result.error);
      return result.data as OptionsOutput<S>;
    },
  };
}

/** Several option sets as one (e.g. partition + chunking + embedding for the API). */
export function mergeOptionSets<A extends FieldsShape, B extends FieldsShape>(
  a: OptionSet<A>,
  b: OptionSet<B>,
): OptionSet<A & B> {
  return defineOptions({ ...a.shape, ...b.shape } as A & B);
}

export function invalidOptions(error: z.ZodError): ServiceError {
  const details: FieldIssue[] = error.issues.map((issue) => ({
    field: issue.path.join('.') || (issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : ''),
    message: issue.code === 'unrecognized_keys' ? `Unknown option: ${issue.keys.join(', ')}` : issue.message,
  }));
  const summary = details.map((d) => (d.field ? `${d.field}: ${d.message}` : d.message)).join('; ');
  return new ServiceError('invalid_option', `Invalid options: ${summary}`, { details });
}

// ---------------------------------------------------------------------------------------------
// String coercion, shared by the CLI and the HTTP form parser.
// ---------------------------------------------------------------------------------------------

const TRUE = /^(true|1|yes|on|t|y)$/i;
const FALSE = /^(false|0|no|off|f|n)$/i;

/** Values as they arrive from a form or command line: one string, or several for repeated keys. */
export type RawValue = string | readonly string[];

function stripQuotes(value: string): string {
  const trimmed = value.trim();
  return trimmed.replace(/^(['"])(.*)\1$/s, '$2');
}

/** Split one list value: a JSON array, or items joined by commas or `+`. */
export function splitListValue(value: string): string[] {
  const trimmed = value.trim();
  if (trimmed.startsWith('[')) {
    try {
      const parsed = JSON.parse(trimmed) as unknown;
      if (Array.isArray(parsed))
        return parsed.map((item) => String(item).trim()).filter((item) => item !== '');
    } catch {
      // not JSON: fall through to delimiter splitting
    }
  }
  return trimmed
    .split(/[,+]/)
    .map((item) => stripQuotes(item))
    .filter((item) => item !== '');
}

function coerceOne(name: string, spec: FieldSpec, raw: RawValue): unknown {
  const values = typeof raw === 'string' ? [raw] : [...raw];
  const first = stripQuotes(values[0] ?? '');
  const fail = (message: string): never => {
    throw invalidOption(name, message);
  };
  switch (spec.kind) {
    case 'boolean':
      if (TRUE.test(first)) return true;
      if (FALSE.test(first)) return false;
      return fail(`expected true or false, got "${first}"`);
    case 'integer': {
      if (!/^[-+]?\d+$/.test(first)) return fail(`expected an integer, got "${first}"`);
      return Number.parseInt(first, 10);
    }
    case 'number': {
      const number = Number(first);
      if (first === '' || !Number.isFinite(number)) return fail(`expected a number, got "${first}"`);
      return number;
    }
    case 'enum': {
      const match =
        spec.values?.find((v) => v === first) ??
        spec.values?.find((v) => v.toLowerCase() === first.toLowerCase());
      return match ?? first; // zod reports the allowed values
    }
    case 'string_list':
      return values.flatMap(splitListValue);
    case 'integer_list':
      return values.flatMap(splitListValue).map((item) => {
        if (!/^[-+]?\d+$/.test(item)) fail(`expected integers, got "${item}"`);
        return Number.parseInt(item, 10);
      });
    case 'json':
      try {
        return JSON.parse(values[0] ?? '') as unknown;
      } catch {
        return fail('expected a JSON object');
      }
    default:
      return values[0];
  }
}

/**
 * Turn string values (CLI flags, multipart form parts) into typed options, then validate.
 * Names may carry a trailing `[]` (as SDKs send lists) or be an alias. Empty strings mean "not given".
 * Unknown names are ignored when `ignoreUnknown` (the HTTP form: clients send extra parts).
 */
export function parseOptionStrings<S extends FieldsShape>(
  set: OptionSet<S>,
  raw: Record<string, RawValue | undefined>,
  { ignoreUnknown = true }: { ignoreUnknown?: boolean } = {},
): OptionsOutput<S> {
  const byName = new Map<string, { name: string; spec: FieldSpec }>();
  for (const f of set.fields) {
    byName.set(f.name, f);
    for (const alias of f.spec.aliases ?? []) byName.set(alias, f);
  }
  const typed: Record<string, unknown> = {};
  const unknown: string[] = [];
  for (const [key, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    const name = key.endsWith('[]') ? key.slice(0, -2) : key;
    const target = byName.get(name);
    if (!target) {
      unknown.push(name);
      continue;
    }
    const values = typeof value === 'string' ? [value] : value;
    const nonEmpty = values.filter((v) => v.trim() !== '');
    if (nonEmpty.length === 0) continue;
    const coerced = coerceOne(target.name, target.spec, nonEmpty);
    const existing = typed[target.name];
    typed[target.name] =
      Array.isArray(existing) && Array.isArray(coerced) ? [...existing, ...coerced] : coerced;
  }
  if (!ignoreUnknown && unknown.length > 0) {
    throw new ServiceError('invalid_option', `Unknown option: ${unknown.join(', ')}`, {
      details: unknown.map((field) => ({ field, message: 'unknown option' })),
    });
  }
  return set.parse(typed);
}

/** Several option sets as one; a name declared twice is a programming error. */
export function combineOptionSets(...sets: AnyOptionSet[]): AnyOptionSet {
  const shape: FieldsShape = {};
  for (const set of sets) {
    for (const [name, value] of Object.entries(set.shape)) {
      if (name in shape) throw new Error(`option ${name} is declared in two option sets`);
      shape[name] = value;
    }
  }
  return defineOptions(shape);
}

/** The values of `values` that belong to `set` (undefined ones left out). */
export function pickOptions(set: AnyOptionSet, values: Record<string, unknown>): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const { name } of set.fields) if (values[name] !== undefined) picked[name] = values[name];
  return picked;
}

/** snake_case → kebab-case, the CLI form of an option name. */
export function toKebabCase(name: string): string {
  return name.replaceAll('_', '-');
}

/** Names of the secret fields of a set, for redaction and cache keys. */
export function secretFieldNames(set: AnyOptionSet): string[] {
  return set.fields.filter((f) => f.spec.secret).map((f) => f.name);
}
