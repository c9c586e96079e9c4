import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { unzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import type { PartitionOptionsInput } from '../options/partition-options.js';
import { type Agreement, agreement, type ComparableElement } from './test-support/agreement.js';
import { IsolatedPartitioner } from './test-support/isolated-partition.js';

/**
 * Our output against the reference system's published outputs for the same sample documents
 * (../shared/samples/unstructured-expected-output; regression snapshots of that system, not human ground
 * truth). For each reference that covers a sample present here: type-sequence and text agreement
 * (test-support/agreement.ts) at or above a floor. The floors sit a little under what we measure; every
 * difference behind them is explained in docs/quality.md ("Agreement with the reference outputs").
 */

const REPO_ROOT = join(import.meta.dirname, '../../../..');
const SAMPLES = join(REPO_ROOT, '../shared/samples');
const DOCS = join(SAMPLES, 'unstructured-example-docs');
const EXPECTED = join(SAMPLES, 'unstructured-expected-output');

interface ReferenceCase {
  /** Path under unstructured-expected-output. */
  reference: string;
  /** Path under unstructured-example-docs. */
  sample: string;
  /** The options the reference run used, in our names. */
  options: PartitionOptionsInput;
  /**
   * elements: the reference is a list of elements; orig_elements: chunks carrying their elements
   * (compressed); chunks: chunk texts only (types are not comparable, text is).
   */
  shape: 'elements' | 'orig_elements' | 'chunks';
  floor: { types?: number; text: number };
  timeoutMs?: number;
}

const CASES: ReferenceCase[] = [
  {
    reference: 'local-single-file/UDHR_first_article_all.txt.json',
    sample: 'language-docs/UDHR_first_article_all.txt',
    options: {},
    shape: 'elements',
    // Each language's name is its own Title here, merged into the paragraph there (docs/quality.md).
    floor: { types: 0.45, text: 0.99 },
  },
  {
    reference: 'local-single-file-with-encoding/fake-html-cp1252.html.json',
    sample: 'fake-html-cp1252.html',
    options: { encoding: 'cp1252' },
    shape: 'elements',
    // The reference decoded its last element with the wrong code page ("trčs" for "très").
    floor: { types: 1, text: 0.98 },
  },
  {
    reference: 'embed/book-war-and-peace-1p.txt.json',
    sample: 'book-war-and-peace-1p.txt',
    options: {},
    shape: 'elements',
    floor: { types: 1, text: 1 },
  },
  {
    reference: 'local-single-file-basic-chunking/handbook-1p.docx.json',
    sample: 'handbook-1p.docx',
    // The reference system's docx reader emits page breaks by default.
    options: { include_page_breaks: true },
    shape: 'orig_elements',
    // Two bold one-line paragraphs are Titles here (docs/formats.md, docx).
    floor: { types: 0.85, text: 1 },
  },
  {
    reference: 'local-single-file-chunk-no-orig-elements/multi-column-2p.pdf.json',
    sample: 'pdf/multi-column-2p.pdf',
    options: { strategy: 'fast' },
    shape: 'chunks',
    floor: { text: 0.93 },
  },
  {
    reference: 'local-single-file-with-pdf-infer-table-structure/layout-parser-paper-with-table.jpg.json',
    sample: 'img/layout-parser-paper-with-table.jpg',
    options: { strategy: 'hi_res', pdf_infer_table_structure: true },
    shape: 'elements',
    floor: { types: 0.45, text: 0.9 },
    timeoutMs: 240_000,
  },
  // The reference's sources for these are not among the samples; they run when someone adds them.
  {
    reference: 'local-single-file-with-pdf-infer-table-structure/layout-parser-paper.pdf.json',
    sample: 'pdf/layout-parser-paper.pdf',
    options: { strategy: 'hi_res', pdf_infer_table_structure: true },
    shape: 'elements',
    floor: { types: 0.3, text: 0.8 },
    timeoutMs: 600_000,
  },
  {
    reference: 'pdf-fast-reprocess/azure/Core-Skills-for-Biomedical-Data-Scientists-2-pages.pdf.json',
    sample: 'pdf/Core-Skills-for-Biomedical-Data-Scientists-2-pages.pdf',
    options: { strategy: 'fast' },
    shape: 'elements',
    floor: { types: 0.5, text: 0.9 },
  },
  {
    reference: 'pdf-fast-reprocess/azure/IRS-form-1987.pdf.json',
    sample: 'pdf/IRS-form-1987.pdf',
    options: { strategy: 'fast' },
    shape: 'elements',
    floor: { types: 0.5, text: 0.8 },
  },
];

/** Reference outputs that are not partitions of a sample document: connector (search index) records. */
const NOT_DOCUMENTS = /^(opensearch|elasticsearch)\//;

interface ReferenceElement extends ComparableElement {
  element_id: string;
  metadata: { orig_elements?: string };
}

function referenceElements(testCase: ReferenceCase): ComparableElement[] {
  const listed = JSON.parse(readFileSync(join(EXPECTED, testCase.reference), 'utf8')) as ReferenceElement[];
  if (testCase.shape !== 'orig_elements') return listed;
  // orig_elements: base64 of zlib/gzip-compressed element JSON; an element split across chunks repeats.
  const seen = new Set<string>();
  const original: ComparableElement[] = [];
  for (const chunk of listed) {
    if (!chunk.metadata.orig_elements) continue;
    const inner = JSON.parse(
      unzipSync(Buffer.from(chunk.metadata.orig_elements, 'base64')).toString(),
    ) as ReferenceElement[];
    for (const element of inner) {
      if (seen.has(element.element_id)) continue;
      seen.add(element.element_id);
      original.push(element);
    }
  }
  return original;
}

function* jsonFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* jsonFiles(path);
    else if (name.endsWith('.json')) yield path;
  }
}

const measured: [ReferenceCase, Agreement][] = [];

describe.skipIf(!existsSync(EXPECTED) || !existsSync(DOCS))('agreement with the reference outputs', () => {
  const runner = new IsolatedPartitioner(600_000);
  afterAll(async () => {
    await runner.close();
    const lines = measured.map(([testCase, a]) => {
      // Chunks carry no element types: only their text compares.
      const types = testCase.shape === 'chunks' ? '  –  ' : a.types.toFixed(3);
      const matched = `${a.matchedElements}/${a.referenceElements} ref, ${a.ourElements} ours`;
      return `${testCase.sample.padEnd(42)} types ${types}  text ${a.text.toFixed(4)}  same type of matched text ${a.typesOfMatchedText.toFixed(3)} (${matched})`;
    });
    console.info(lines.join('\n'));
  });

  it('covers every reference output of a document, or says why not', () => {
    const covered = new Set(CASES.map((testCase) => testCase.reference));
    for (const path of jsonFiles(EXPECTED)) {
      const name = relative(EXPECTED, path);
      if (!NOT_DOCUMENTS.test(name)) expect(covered, name).toContain(name);
    }
  });

  for (const testCase of CASES) {
    const present = existsSync(join(DOCS, testCase.sample)) && existsSync(join(EXPECTED, testCase.reference));
    const timeout = testCase.timeoutMs ?? 120_000;
    it.skipIf(!present)(
      `${testCase.sample} (${testCase.reference.split('/')[0]})`,
      { timeout: timeout + 30_000 },
      async () => {
        const outcome = await runner.run(join(DOCS, testCase.sample), testCase.options);
        if (outcome.kind !== 'elements')
          expect.fail(`${outcome.kind}: ${'message' in outcome ? outcome.message : ''}`);
        const ours = outcome.elements;
        const reference = referenceElements(testCase);
        const result = agreement(ours, reference);
        measured.push([testCase, result]);
        expect(result.text).toBeGreaterThanOrEqual(testCase.floor.text);
        if (testCase.floor.types !== undefined)
          expect(result.types).toBeGreaterThanOrEqual(testCase.floor.types);
      },
    );
  }
});
