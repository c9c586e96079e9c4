import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OPTIONS_DOC, renderOptionsDoc } from './options-doc.js';

describe('docs/options.md', () => {
  it('is generated from the current option sets (run `npm run docs:options` after changing an option)', () => {
    expect(readFileSync(OPTIONS_DOC, 'utf8')).toBe(renderOptionsDoc());
  });
});
