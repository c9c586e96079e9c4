import type { FieldSpec } from '../options/fields.js';

/**
 * The options of one set out of a merged options object (partition + chunking + embedding… as the API
 * and the CLI hold them), by name and alias. Each step validates strictly what it is given, so the
 * pipeline hands it only its own options.
 */
export function pickOptions<T>(
  set: { fields: readonly { name: string; spec: FieldSpec }[] },
  options: Record<string, unknown>,
): T {
  const picked: Record<string, unknown> = {};
  for (const { name, spec } of set.fields) {
    for (const key of [name, ...(spec.aliases ?? [])]) {
      if (options[key] !== undefined) picked[key] = options[key];
    }
  }
  return picked as T;
}
