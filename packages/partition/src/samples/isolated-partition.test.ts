import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { IsolatedPartitioner } from './test-support/isolated-partition.js';

/** The sample suites rely on the child-process runner telling results, typed errors and hangs apart. */
describe('IsolatedPartitioner', () => {
  const dir = mkdtempSync(join(tmpdir(), 'isolated-'));
  const text = join(dir, 'note.txt');
  writeFileSync(text, 'A short note.\n\nThe committee approved the budget after a long debate.\n');
  const garbage = join(dir, 'garbage.bin');
  writeFileSync(garbage, Buffer.from([0x9e, 0x03, 0, 1, 2, 3, 0xff, 0xfe, 0, 0, 7, 9]));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('returns elements, typed errors, and kills a run past its time limit', { timeout: 60_000 }, async () => {
    const runner = new IsolatedPartitioner(20_000);
    try {
      const ok = await runner.run(text);
      expect(ok.kind === 'elements' && ok.elements.map((e) => e.type)).toEqual([
        'UncategorizedText',
        'NarrativeText',
      ]);
      const refused = await runner.run(garbage);
      expect(refused).toMatchObject({ kind: 'error', typed: true, code: 'unsupported_file_type' });
    } finally {
      await runner.close();
    }
    const impatient = new IsolatedPartitioner(1);
    try {
      expect((await impatient.run(text)).kind).toBe('hang');
    } finally {
      await impatient.close();
    }
  });
});
