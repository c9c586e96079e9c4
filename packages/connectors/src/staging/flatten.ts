/**
 * Flattening of nested element metadata into one level of keys, as destinations store it (SPEC 2.7):
 * engine_a and engine_b join nested keys with "-" (`coordinates-points`,
 * `data_source-record_locator-protocol`); vector_db joins them with "_" (`coordinates_points`).
 *
 * Rules, the same for every target:
 * - plain objects are descended into; their keys are joined to the parent's with the joiner;
 * - arrays are values: they are kept whole, never flattened (`languages`, `coordinates-points`,
 *   `entities-items` stay arrays), because the SPEC mappings type them as arrays of their items;
 * - `null` and `undefined` are left out (a missing field and a null field mean the same to a search index,
 *   and vector_db rejects nulls in non-nullable fields);
 * - an object with no keys contributes nothing.
 */

export type FlatRecord = Record<string, unknown>;

export function flattenObject(value: Record<string, unknown>, joiner: string): FlatRecord {
  const flat: FlatRecord = {};
  addFlattened(flat, value, '', joiner);
  return flat;
}

function addFlattened(
  flat: FlatRecord,
  value: Record<string, unknown>,
  prefix: string,
  joiner: string,
): void {
  for (const [key, item] of Object.entries(value)) {
    if (item === null || item === undefined) continue;
    const path = prefix === '' ? key : `${prefix}${joiner}${key}`;
    if (isPlainObject(item)) addFlattened(flat, item, path, joiner);
    else flat[path] = item;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
