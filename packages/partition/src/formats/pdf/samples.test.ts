import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { partition } from '../../pipeline/partition.js';

/**
 * The shared sample corpus (../shared/samples, when present): every PDF either partitions with the
 * fast strategy or fails with the typed error it should, and the hard cases come out right.
 */
const DIR = join(import.meta.dirname, '../../../../../../shared/samples/unstructured-example-docs/pdf');
/** Large files are covered by the benchmark, not by unit tests. */
const SKIP = new Set(['DA-619p.pdf', 'pdf2image-memory-error-test-400p.pdf', 'failure-after-repair.pdf']);

const fast = (name: string, options = {}) =>
  partition({ data: readFileSync(join(DIR, name)), filename: name }, { strategy: 'fast', ...options });

describe.skipIf(!existsSync(DIR))('sample PDFs (fast)', () => {
  it('partitions every sample or refuses it with a typed error', async () => {
    for (const name of readdirSync(DIR).filter((n) => n.endsWith('.pdf') && !SKIP.has(n))) {
      if (name === 'password.pdf') {
        await expect(fast(name)).rejects.toMatchObject({ code: 'encrypted_document' });
        continue;
      }
      const elements = await fast(name, { coordinates: true });
      for (const element of elements) {
        expect(element.metadata.page_number).toBeGreaterThanOrEqual(1);
        const c = element.metadata.coordinates;
        if (!c) continue;
        for (const [x, y] of c.points) {
          expect(x).toBeGreaterThanOrEqual(0);
          expect(y).toBeGreaterThanOrEqual(0);
          expect(x).toBeLessThanOrEqual(c.layout_width + 1);
          expect(y).toBeLessThanOrEqual(c.layout_height + 1);
        }
      }
    }
  });

  it('reads copy-protected, CID-font, Korean and damaged files', async () => {
    const text = async (name: string) => (await fast(name)).map((e) => e.text).join('\n');
    expect(await text('copy-protected.pdf')).toMatch(/\w{4,}/);
    expect(await text('embedded-cmap-cidfont.pdf')).toContain(
      'This text uses an embedded CMap and should be extractable',
    );
    expect(await text('korean-text-with-tables.pdf')).toMatch(/빅포인트/);
    expect(await text('invalid-pdf-structure-pdfminer-one-page.pdf')).toMatch(/\w{4,}/);
    expect(await text('fake-bold-sample.pdf')).toContain('BOLD TEXT SAMPLE');
    expect(await text('layout-parser-paper-fast.pdf')).toContain(
      'LayoutParser: A Unified Toolkit for Deep Learning Based Document Image Analysis',
    );
  });

  it('keeps text drawn at negative coordinates and pages of a document with empty pages', async () => {
    const negative = await fast('negative-coords.pdf', { coordinates: true });
    expect(negative.map((e) => e.text).join(' ')).toContain('Fraunhofer IZM');
    const withEmpty = await fast('layout-parser-paper-with-empty-pages.pdf', { include_page_breaks: true });
    expect(withEmpty.filter((e) => e.type === 'PageBreak')).toHaveLength(4);
  });
});
