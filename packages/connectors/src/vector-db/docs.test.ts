import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { toKebabCase } from '@docsvc/partition';
import { describe, expect, it } from 'vitest';
import { vectorDbDestinationOptions } from './config.js';

/** docs/connectors.md documents every vector_db option with its flag and environment variable. */
const doc = readFileSync(join(import.meta.dirname, '../../../../docs/connectors.md'), 'utf8');

describe('docs/connectors.md, vector_db section', () => {
  it('lists every option with its flag and variable', () => {
    const start = doc.indexOf('## vector_db');
    expect(start).toBeGreaterThan(-1);
    const end = doc.indexOf('\n## ', start + 1);
    const lines = doc.slice(start, end < 0 ? undefined : end).split('\n');
    for (const { name, spec } of vectorDbDestinationOptions.fields) {
      const row = lines.find((line) => line.startsWith(`| \`${name}\``));
      expect(row, name).toBeDefined();
      expect(row).toContain(`\`--${toKebabCase(name)}\``);
      if (spec.env) expect(row).toContain(`\`${spec.env}\``);
    }
  });
});
