import { existsSync, readdirSync, statSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ELEMENT_TYPES } from '../elements/element-types.js';
import type { ErrorCode } from '../errors.js';
import { findSoffice } from '../formats/legacy-office/convert.js';
import type { PartitionOptionsInput } from '../options/partition-options.js';
import { type IsolatedOutcome, IsolatedPartitioner } from './test-support/isolated-partition.js';

/**
 * Regression suite over the sample corpus beside the repository (../shared/samples, resolved from the
 * repo root; the suite skips where it is absent, as in a fresh clone). EVERY file, in every folder:
 * - partitions into well-formed elements (at least one, unless listed in EXPECTED_EMPTY), or fails with
 *   exactly the typed error listed in EXPECTED_ERRORS — never an untyped or `internal` error;
 * - never crashes or hangs: each file runs in a child process killed after FILE_TIME_LIMIT_MS.
 * PDFs use strategy fast here (text layer); images are detected and every page decoded, without OCR,
 * unless DOCSVC_SAMPLES_FULL=1 asks for the default strategy (OCR of all sample images takes minutes).
 * hi_res against reference outputs is in reference.test.ts.
 */

const REPO_ROOT = join(import.meta.dirname, '../../../..');
const DOCS = join(REPO_ROOT, '../shared/samples/unstructured-example-docs');
const FULL = process.env.DOCSVC_SAMPLES_FULL === '1';
/** Generous: the slowest file (a 619-page PDF) takes about 15 s alone on two busy cores. */
const FILE_TIME_LIMIT_MS = 120_000;

const IMAGE = /\.(png|jpe?g|tiff?|bmp|heic|heif|webp|gif)$/i;
const LEGACY = /\.(doc|ppt)$/i;
/** .doc/.ppt files whose bytes are really OOXML: read without LibreOffice. */
const OOXML_NAMED_LEGACY = new Set(['language-docs/eng_spa_mult.doc', 'language-docs/eng_spa_mult.ppt']);

/** Files refused on purpose, with the code users get. */
const EXPECTED_ERRORS: Record<string, ErrorCode> = {
  'CantinaBand3.wav': 'unsupported_file_type', // audio
  'simple.zip': 'unsupported_file_type', // an archive, not a document
  'simple.yaml': 'unsupported_file_type', // configuration, no partitioner
  'unsupported/factbook.xsl': 'unsupported_file_type', // an XSLT stylesheet
  'img/DA-1p.heic': 'unsupported_file_type', // HEVC-coded: no decoder ships (docs/formats.md)
  'password_protected.xlsx': 'encrypted_document',
  'pdf/password.pdf': 'encrypted_document',
  'eml/fake-encrypted.eml': 'encrypted_document', // S/MIME enveloped
  'fake-encrypted.msg': 'encrypted_document',
};

/** Files that rightly give no elements, and why. */
const EXPECTED_EMPTY: Record<string, string> = {
  'empty.txt': 'empty file',
  'fake-text-all-whitespace.txt': 'only whitespace',
  'empty.xlsx': 'a workbook with no cell values',
  'eml/empty.eml': 'empty file',
  'eml/mime-no-body.eml': 'no body; its one attachment is an unreadable stub image',
  'pdf/loremipsum-flat.pdf': 'a scan: no text layer for strategy fast',
  'pdf/table-multi-row-column-cells.pdf': 'a scan: no text layer for strategy fast',
  ...(FULL ? { 'img/example.jpg': 'a photo of a flower', 'img/bmp_24.bmp': 'three coloured triangles' } : {}),
};

function* sampleFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sampleFiles(path);
    else yield path;
  }
}

const files = existsSync(DOCS) ? [...sampleFiles(DOCS)].map((path) => relative(DOCS, path)) : [];

function planFor(name: string): { options: PartitionOptionsInput; mode: 'partition' | 'decode-image' } {
  if (/\.pdf$/i.test(name)) return { options: { strategy: 'fast' }, mode: 'partition' };
  if (IMAGE.test(name) && !FULL) return { options: {}, mode: 'decode-image' };
  return { options: {}, mode: 'partition' };
}

function expectedError(name: string): ErrorCode | undefined {
  if (EXPECTED_ERRORS[name]) return EXPECTED_ERRORS[name];
  if (LEGACY.test(name) && !OOXML_NAMED_LEGACY.has(name) && findSoffice() === undefined) {
    return 'converter_unavailable';
  }
  return undefined;
}

/** Per extension: files that gave elements, that gave none on purpose, and typed errors. */
const tally = new Map<string, { elements: number; empty: number; errors: number; ms: number }>();
function count(name: string, outcome: IsolatedOutcome): void {
  const key = extname(name).toLowerCase() || '(none)';
  const entry = tally.get(key) ?? { elements: 0, empty: 0, errors: 0, ms: 0 };
  if (outcome.kind === 'elements') {
    if (outcome.elements.length > 0) entry.elements++;
    else entry.empty++;
  } else if (outcome.kind === 'error') entry.errors++;
  entry.ms += outcome.ms;
  tally.set(key, entry);
}

describe.skipIf(files.length === 0)('sample corpus: every file partitions or fails typed', () => {
  const runner = new IsolatedPartitioner(FILE_TIME_LIMIT_MS);
  afterAll(async () => {
    await runner.close();
    const rows = [...tally.entries()].sort(([a], [b]) => a.localeCompare(b));
    const lines = rows.map(
      ([ext, e]) =>
        `${ext.padEnd(8)} ${String(e.elements).padStart(4)} ${String(e.empty).padStart(5)} ${String(e.errors).padStart(6)} ${(e.ms / 1000).toFixed(1).padStart(7)}`,
    );
    console.info(['ext      with empty errors seconds', ...lines].join('\n'));
  });

  it('lists only files that exist', () => {
    for (const name of [...Object.keys(EXPECTED_ERRORS), ...Object.keys(EXPECTED_EMPTY)]) {
      expect(files, name).toContain(name);
    }
  });

  it.each(files)('%s', { timeout: FILE_TIME_LIMIT_MS + 30_000 }, async (name) => {
    const { options, mode } = planFor(name);
    const outcome = await runner.run(join(DOCS, name), options, mode);
    count(name, outcome);
    if (outcome.kind === 'hang') expect.fail(`no result within ${FILE_TIME_LIMIT_MS} ms`);
    if (outcome.kind === 'crash') expect.fail(`the partitioning process died: ${outcome.message}`);
    const expected = expectedError(name);
    if (outcome.kind === 'error') {
      expect(outcome.typed, outcome.message).toBe(true);
      expect(`${outcome.code}: ${outcome.message}`).toMatch(new RegExp(`^${expected ?? '(?!)'}:`));
      return;
    }
    expect(expected, `expected ${expected}, got ${outcome.elements.length} elements`).toBeUndefined();
    if (EXPECTED_EMPTY[name]) {
      expect(outcome.elements).toEqual([]);
      return;
    }
    expect(outcome.elements.length).toBeGreaterThan(0);
    for (const element of outcome.elements) {
      expect(ELEMENT_TYPES).toContain(element.type);
      expect(typeof element.text).toBe('string');
      if (element.page_number !== undefined) expect(element.page_number).toBeGreaterThanOrEqual(1);
      // A table's HTML, when present (hi_res keeps it only with pdf_infer_table_structure), is a table;
      // element JSON read back keeps its tables' HTML as written, attributes and all.
      if (element.type === 'Table' && element.text_as_html !== undefined) {
        expect(element.text_as_html.trim()).toMatch(/^<table[\s>][\s\S]*<\/table>$/);
      }
    }
  });
});
