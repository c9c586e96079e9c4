import type { AnyOptionSet } from '@docsvc/partition';

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
