import { type AnyOptionSet, field } from '@docsvc/partition';

/**
 * Validates a connector config given as an object (library calls, API payloads), accepting each option's
 * aliases as well as its name (SPEC 2.2's `engine_api_key` for `api_key`). The CLI resolves aliases
 * itself; the option set's own `parse` knows only the canonical names.
 */
export function parseConnectorOptions<T>(
  set: { fields: AnyOptionSet['fields']; parse(input: unknown): T },
  config: Record<string, unknown>,
): T {
  const canonical = new Map<string, string>();
  for (const { name, spec } of set.fields) for (const alias of spec.aliases ?? []) canonical.set(alias, name);
  const input: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(config)) {
    const name = canonical.get(key) ?? key;
    // The canonical name wins over an alias given at the same time.
    if (name !== key && config[name] !== undefined) continue;
    input[name] = value;
  }
  return set.parse(input);
}

/** Options of reading an index, the same for engine_a and engine_b. */
export const searchSourceFields = {
  fields: field.stringList({
    description:
      'Only these fields of each document are read (dotted paths for nested fields); default: all.',
    placeholder: '<fields>',
  }),
  batch_size: field.integer({
    default: 100,
    min: 1,
    max: 10_000,
    description: 'Documents read per search request.',
  }),
};

/** Options of bulk writes; the engines differ only in the body size they take by default. */
export function bulkWriteFields(batchSizeBytes: { default: number; description: string }) {
  return {
    batch_size_bytes: field.integer({ ...batchSizeBytes, min: 1_000, max: 100_000_000 }),
    num_threads: field.integer({
      default: 4,
      min: 1,
      max: 64,
      aliases: ['concurrency'],
      description: 'Bulk requests in flight at once (over all records being uploaded).',
    }),
  };
}
