import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { toKebabCase } from '@docsvc/partition';
import { describe, expect, it } from 'vitest';
import { engineADestinationOptions, engineASourceOptions } from '../engine-a/config.js';
import { engineBDestinationOptions, engineBSourceOptions } from '../engine-b/config.js';

/** docs/connectors.md documents every engine_a/engine_b option with its flag and environment variable. */
const doc = readFileSync(join(import.meta.dirname, '../../../../docs/connectors.md'), 'utf8');

function section(title: string): string {
  const start = doc.indexOf(`## ${title}`);
  const end = doc.indexOf('\n## ', start + 1);
  return doc.slice(start, end < 0 ? undefined : end);
}

describe('docs/connectors.md', () => {
  for (const [title, sets] of [
    ['engine_a', [engineASourceOptions, engineADestinationOptions]],
    ['engine_b', [engineBSourceOptions, engineBDestinationOptions]],
  ] as const) {
    it(`lists every ${title} option with its flag and variable`, () => {
      const text = section(title);
      expect(text).not.toBe('');
      for (const set of sets) {
        for (const { name, spec } of set.fields) {
          const row = text.split('\n').find((line) => line.startsWith(`| \`${name}\``));
          expect(row, name).toBeDefined();
          expect(row).toContain(`\`--${toKebabCase(name)}\``);
          if (spec.env) expect(row).toContain(`\`${spec.env}\``);
          for (const alias of spec.aliases ?? []) expect(row).toContain(`\`${alias}\``);
        }
      }
    });
  }
});
