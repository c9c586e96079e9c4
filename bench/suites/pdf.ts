import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { partition } from '@docsvc/partition';
import { markdownTable } from '../../scripts/lib/doc-sections.js';
import { type BenchSuite, machineLine, medianMs } from '../lib.js';
import { SAMPLES_DIR } from './formats.js';

/**
 * `npm run bench -- bench-pdf`: the fast strategy on the sample PDFs against `pdftotext` (poppler) as
 * the floor for plain text extraction, the page-worker pool, and peak memory (each measured in a child
 * process of its own so the numbers are not mixed) on the largest samples and a generated 1,000-page PDF.
 */

const PDF_DIR = join(SAMPLES_DIR, 'pdf');
const RUNS = 3;

interface FileRow {
  name: string;
  pages: number;
  fastMs: number;
  popplerMs: number | undefined;
}

function hasPdftotext(): boolean {
  return spawnSync('pdftotext', ['-v']).status === 0;
}

function pdftotextMs(path: string): number {
  const times: number[] = [];
  for (let i = 0; i <= RUNS; i++) {
    const start = performance.now();
    execFileSync('pdftotext', ['-enc', 'UTF-8', path, '/dev/null']);
    if (i > 0) times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

/** Child-process mode: partition one file and print pages and peak RSS (MiB) as JSON. */
async function measureChild(path: string, pooled: boolean): Promise<void> {
  const data = readFileSync(path);
  const start = performance.now();
  const elements = await partition(
    { data, filename: 'bench.pdf' },
    { strategy: 'fast', split_pdf_page: pooled },
  );
  const ms = performance.now() - start;
  const pages = new Set(elements.map((e) => e.metadata.page_number)).size;
  if (pooled) {
    const { closePagePool } = await import('../../packages/partition/src/workers/page-pool.js');
    await closePagePool();
  }
  console.log(JSON.stringify({ ms, pages, rssMiB: process.resourceUsage().maxRSS / 1024 }));
}

function runChild(path: string, pooled: boolean): { ms: number; pages: number; rssMiB: number } {
  const result = spawnSync(
    process.execPath,
    [
      '--conditions=source',
      '--import',
      'tsx',
      import.meta.filename,
      '--measure',
      path,
      pooled ? 'pooled' : 'thread',
    ],
    { encoding: 'utf8', maxBuffer: 1 << 20 },
  );
  const line = result.stdout.trim().split('\n').pop() ?? '';
  if (result.status !== 0 || !line.startsWith('{'))
    throw new Error(`child failed: ${result.stderr.slice(0, 500)}`);
  return JSON.parse(line);
}

/** A 1,000-page text PDF (running header, heading, two paragraphs per page), generated once. */
async function thousandPagePdf(): Promise<string> {
  const dir = join(tmpdir(), 'docsvc-bench');
  const path = join(dir, 'generated-1000p.pdf');
  if (existsSync(path)) return path;
  mkdirSync(dir, { recursive: true });
  const { makePdf } = await import('../../packages/partition/src/formats/pdf/test-support/make-pdf.js');
  const paragraph =
    'The operations team reduced average delivery time by twelve percent during the quarter, while costs stayed within the approved budget. ';
  const pages = Array.from({ length: 1000 }, (_, i) => ({
    header: 'Generated benchmark document',
    footer: 'Page {page} of {pages}',
    blocks: [
      { kind: 'heading' as const, text: `Section ${i + 1}`, size: 16 },
      { kind: 'paragraph' as const, text: paragraph.repeat(4) },
      { kind: 'paragraph' as const, text: paragraph.repeat(3) },
    ],
  }));
  writeFileSync(path, await makePdf(pages, { compress: true }));
  return path;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const fmt = (value: number | undefined, digits = 0) => (value === undefined ? '–' : value.toFixed(digits));

export const suite: BenchSuite = {
  name: 'bench-pdf',
  title: 'PDF fast strategy',
  async run() {
    if (!existsSync(PDF_DIR)) return 'Sample PDFs not found (../shared/samples); nothing measured.';
    const poppler = hasPdftotext();
    const rows: FileRow[] = [];
    for (const name of readdirSync(PDF_DIR).sort()) {
      if (!name.endsWith('.pdf')) continue;
      const path = join(PDF_DIR, name);
      const data = readFileSync(path);
      let pages = 0;
      let textChars = 0;
      try {
        const elements = await partition({ data, filename: name }, { strategy: 'fast' });
        pages = new Set(elements.map((e) => e.metadata.page_number)).size;
        textChars = elements.reduce((sum, e) => sum + e.text.length, 0);
      } catch {
        continue; // encrypted sample
      }
      // Scans (no text layer) are not what the fast strategy is for.
      if (pages === 0 || textChars < 100 * pages) continue;
      const fastMs = await medianMs(() => partition({ data, filename: name }, { strategy: 'fast' }), RUNS);
      rows.push({ name, pages, fastMs, popplerMs: poppler ? pdftotextMs(path) : undefined });
    }
    const perFile = rows.map((r) => [
      r.name,
      r.pages,
      fmt(r.fastMs, 1),
      fmt((r.pages * 1000) / r.fastMs, 0),
      fmt(r.popplerMs, 1),
      r.popplerMs ? fmt(r.fastMs / r.popplerMs, 2) : '–',
    ]);
    const medianPagesPerSecond = median(rows.map((r) => (r.pages * 1000) / r.fastMs));
    const totalFast = rows.reduce((s, r) => s + r.fastMs, 0);
    const totalPoppler = rows.reduce((s, r) => s + (r.popplerMs ?? 0), 0);
    const ratios = rows.filter((r) => r.popplerMs).map((r) => r.fastMs / r.popplerMs!);

    const large = ['DA-619p.pdf', 'pdf2image-memory-error-test-400p.pdf'].map((name) => join(PDF_DIR, name));
    const generated = await thousandPagePdf();
    const memoryRows: (string | number)[][] = [];
    for (const path of [...large, generated]) {
      for (const pooled of [false, true]) {
        const result = runChild(path, pooled);
        memoryRows.push([
          path.split('/').pop()!,
          pooled ? 'worker pool (split_pdf_page)' : 'calling thread',
          result.pages,
          fmt(result.ms / 1000, 1),
          fmt((result.pages * 1000) / result.ms, 0),
          fmt(result.rssMiB, 0),
        ]);
      }
    }

    return [
      `${machineLine()}; strategy fast, one thread, median of ${RUNS} runs after a warm-up; text PDFs among the samples (scans and the encrypted sample skipped). pdftotext ${poppler ? '(poppler-utils) on the same files, same runs' : 'not installed'}.`,
      '',
      `**Median ${fmt(medianPagesPerSecond)} pages/s** per file (one core). All files: fast ${fmt(totalFast / 1000, 2)} s, pdftotext ${fmt(totalPoppler / 1000, 2)} s (×${fmt(totalPoppler ? totalFast / totalPoppler : undefined, 2)}); median per-file ratio ×${fmt(median(ratios), 2)}.`,
      '',
      markdownTable(['file', 'pages', 'fast ms', 'pages/s', 'pdftotext ms', 'fast / pdftotext'], perFile),
      '',
      'Whole documents in a child process each (peak RSS is the child’s, including Node itself):',
      '',
      markdownTable(['file', 'where pages run', 'pages', 's', 'pages/s', 'peak RSS MiB'], memoryRows),
    ].join('\n');
  },
};

if (process.argv[2] === '--measure') {
  await measureChild(process.argv[3]!, process.argv[4] === 'pooled');
}
