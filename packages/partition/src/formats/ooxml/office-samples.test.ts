import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { type Element, partition, ServiceError } from '../../index.js';
import { findSoffice } from '../legacy-office/convert.js';

/**
 * Regression suite over the shared sample corpus (present beside the repository in CI, absent in a fresh
 * clone): every office document partitions, or fails with the typed error it deserves.
 */
const SHARED = join(import.meta.dirname, '../../../../../../shared/samples');
const DOCS = join(SHARED, 'unstructured-example-docs');
const EXPECTED = join(SHARED, 'unstructured-expected-output');
const OFFICE = /\.(docx|pptx|xlsx|xls|odt|rtf|doc|ppt)$/i;
const EXPECTED_ERRORS: Record<string, string> = { 'password_protected.xlsx': 'encrypted_document' };

function officeSamples(): string[] {
  if (!existsSync(DOCS)) return [];
  const top = readdirSync(DOCS).filter((name) => OFFICE.test(name));
  const languages = existsSync(join(DOCS, 'language-docs'))
    ? readdirSync(join(DOCS, 'language-docs'))
        .filter((name) => OFFICE.test(name))
        .map((name) => `language-docs/${name}`)
    : [];
  return [...top, ...languages].sort();
}

async function run(name: string, options = {}): Promise<Element[]> {
  return partition({ data: readFileSync(join(DOCS, name)), filename: name.split('/').pop() }, options);
}

describe.skipIf(!existsSync(DOCS))('office samples', () => {
  const legacyReady = findSoffice() !== undefined;
  for (const name of officeSamples()) {
    it(`partitions ${name}`, { timeout: 60_000 }, async () => {
      const legacy = /\.(doc|ppt)$/i.test(name);
      const expected =
        EXPECTED_ERRORS[name] ?? (legacy && !legacyReady ? 'converter_unavailable' : undefined);
      if (expected) {
        const error = await run(name).catch((e) => e);
        expect(error).toBeInstanceOf(ServiceError);
        expect(error.code).toBe(expected);
        return;
      }
      const elements = await run(name);
      if (!/^empty\./.test(name)) expect(elements.length).toBeGreaterThan(0);
      for (const element of elements) expect(element.metadata.filetype).toBeTruthy();
    });
  }

  it('keeps the reading order of nested group shapes', async () => {
    const elements = await run('group-shapes-nested.pptx');
    expect(elements.map((e) => e.text)).toEqual(['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J']);
  });

  it('counts rendered and section page breaks', async () => {
    const elements = await run('page-breaks.docx');
    expect(elements.at(-1)!.metadata.page_number).toBe(6);
  });

  it('finds the sub-tables of a sheet', async () => {
    const tables = (await run('xlsx-subtable-cases.xlsx')).filter((e) => e.type === 'Table');
    expect(tables.length).toBeGreaterThanOrEqual(10);
  });

  it.skipIf(!existsSync(join(EXPECTED, 'local-single-file-basic-chunking/handbook-1p.docx.json')))(
    'matches the reference text and order of handbook-1p.docx',
    async () => {
      const reference = JSON.parse(
        readFileSync(join(EXPECTED, 'local-single-file-basic-chunking/handbook-1p.docx.json'), 'utf8'),
      ) as { metadata: { orig_elements?: string } }[];
      // The reference is chunked; its original elements are base64(zlib or gzip(JSON)) in each chunk.
      const seen = new Set<string>();
      const original: { type: string; text: string }[] = [];
      for (const chunk of reference) {
        if (!chunk.metadata.orig_elements) continue;
        const inner = JSON.parse(
          unzipSync(Buffer.from(chunk.metadata.orig_elements, 'base64')).toString(),
        ) as {
          element_id: string;
          type: string;
          text: string;
        }[];
        for (const element of inner) {
          if (seen.has(element.element_id)) continue;
          seen.add(element.element_id);
          if (element.type !== 'PageBreak') original.push(element);
        }
      }
      const ours = (await run('handbook-1p.docx')).map((e) => e.text);
      expect(ours).toEqual(original.map((e) => e.text.trim())); // the reference keeps trailing spaces
      expect((await run('handbook-1p.docx')).map((e) => e.metadata.page_number).at(-2)).toBe(2);
    },
  );
});
