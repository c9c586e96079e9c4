import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { partition } from '@docsvc/partition';
import { markdownTable } from '../../scripts/lib/doc-sections.js';
import { type BenchSuite, machineLine, peakRssMiB } from '../lib.js';
import { SAMPLES_DIR } from './formats.js';

/**
 * `npm run bench -- bench-pdf`: the fast strategy on the sample PDFs against `pdftotext` (poppler) as
 * the floor for plain text extraction, the page-worker pool, and peak memory (each measured in a child
 * process of its own so the numbers are not mixed) on the largest samples and a generated 1,000-page PDF.
 */

const PDF_DIR = join(SAMPLES_DIR, 'pdf');
const RUNS = 5;

interface FileRow {
  name: string;
  pages: number;
  wallMs: number;
  cpuMs: number;
  popplerCpuMs: number | undefined;
}

function hasPdftotext(): boolean {
  return spawnSync('pdftotext', ['-v']).status === 0 && existsSync('/usr/bin/time');
}

/**
 * pdftotext's CPU time (user + system) per run, from GNU time over RUNS runs: CPU time, unlike wall
 * time, does not depend on what else the machine is doing.
 */
function pdftotextCpuMs(path: string): number {
  const loop = `for i in $(seq ${RUNS}); do pdftotext -q -enc UTF-8 "$1" /dev/null; done`;
  const result = spawnSync('/usr/bin/time', ['-f', '%U %S', 'sh', '-c', loop, 'sh', path], {
    encoding: 'utf8',
  });
  const [user, system] = (result.stderr.trim().split('\n').pop() ?? '0 0').split(' ').map(Number);
  return (((user ?? 0) + (system ?? 0)) * 1000) / RUNS;
}

/** Median wall time and mean CPU time (all threads of this process) of `fn` over RUNS runs. */
async function measure(fn: () => Promise<unknown>): Promise<{ wallMs: number; cpuMs: number }> {
  await fn();
  const walls: number[] = [];
  const before = process.cpuUsage();
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await fn();
    walls.push(performance.now() - start);
  }
  const cpu = process.cpuUsage(before);
  return { wallMs: median(walls), cpuMs: (cpu.user + cpu.system) / 1000 / RUNS };
}

/** Child-process mode: partition one file and print pages and peak RSS (MiB) as JSON. */
async function measureChild(path: string, pooled: boolean): Promise<void> {
  const data = readFileSync(path);
  const start = performance.now();
  const elements = await partition(
    { data, filename: 'bench.pdf' },
    { strategy: 'fast', split_pdf_page: pooled, include_page_breaks: true },
  );
  const ms = performance.now() - start;
  const pages = elements.filter((e) => e.type === 'PageBreak').length;
  const cpu = process.cpuUsage();
  if (pooled) {
    const { closePagePool } = await import('../../packages/partition/src/workers/page-pool.js');
    await closePagePool();
  }
  const cpuMs = (cpu.user + cpu.system) / 1000;
  console.log(JSON.stringify({ ms, cpuMs, pages, rssMiB: peakRssMiB() }));
}

function runChild(
  path: string,
  pooled: boolean,
): { ms: number; cpuMs: number; pages: number; rssMiB: number } {
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
        if (pages === 0) continue;
        textChars = elements.reduce((sum, e) => sum + e.text.length, 0);
      } catch {
        continue; // encrypted sample
      }
      // Scans (no text layer) are not what the fast strategy is for.
      if (pages === 0 || textChars < 100 * pages) continue;
      const { wallMs, cpuMs } = await measure(() =>
        partition({ data, filename: name }, { strategy: 'fast' }),
      );
      rows.push({ name, pages, wallMs, cpuMs, popplerCpuMs: poppler ? pdftotextCpuMs(path) : undefined });
    }
    const perFile = rows.map((r) => [
      r.name,
      r.pages,
      fmt(r.wallMs, 1),
      fmt(r.cpuMs, 1),
      fmt((r.pages * 1000) / r.cpuMs, 0),
      fmt(r.popplerCpuMs, 1),
      r.popplerCpuMs ? fmt(r.cpuMs / r.popplerCpuMs, 2) : '–',
    ]);
    const medianPagesPerCpuSecond = median(rows.map((r) => (r.pages * 1000) / r.cpuMs));
    const totalCpu = rows.reduce((s, r) => s + r.cpuMs, 0);
    const totalPoppler = rows.reduce((s, r) => s + (r.popplerCpuMs ?? 0), 0);
    const totalPages = rows.reduce((s, r) => s + r.pages, 0);
    const ratios = rows.filter((r) => r.popplerCpuMs).map((r) => r.cpuMs / r.popplerCpuMs!);
    const load = loadavg()[0]!.toFixed(1);

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
          fmt(result.cpuMs / 1000, 1),
          fmt((result.pages * 1000) / result.cpuMs, 0),
          fmt(result.rssMiB, 0),
        ]);
      }
    }

    return [
      `${machineLine()}; load average ${load} when the suite started (other work shares these 2 cores, so wall times vary; CPU times, user + system of all threads, do not). Strategy fast in the calling thread, ${RUNS} runs after a warm-up; text PDFs among the samples (scans and the encrypted sample skipped). pdftotext ${poppler ? '(poppler-utils) on the same files, CPU time from GNU time over the same number of runs' : 'not installed'}.`,
      '',
      `**Median ${fmt(medianPagesPerCpuSecond)} pages per CPU-second** per file; all ${totalPages} pages: ${fmt((totalPages * 1000) / totalCpu)} pages per CPU-second. CPU time, all files: fast ${fmt(totalCpu / 1000, 2)} s, pdftotext ${fmt(totalPoppler / 1000, 2)} s (×${fmt(totalPoppler ? totalCpu / totalPoppler : undefined, 2)}); median per-file ratio ×${fmt(median(ratios), 2)}.`,
      '',
      markdownTable(
        [
          'file',
          'pages',
          'fast wall ms',
          'fast CPU ms',
          'pages / CPU-s',
          'pdftotext CPU ms',
          'fast / pdftotext (CPU)',
        ],
        perFile,
      ),
      '',
      'Whole documents, each in a child process of its own (include_page_breaks to count pages; CPU of all threads; peak RSS of the process, Node included; workers load the TypeScript sources through tsx here, which adds to their memory):',
      '',
      markdownTable(
        ['file', 'where pages run', 'pages', 'wall s', 'CPU s', 'pages / CPU-s', 'peak RSS MiB'],
        memoryRows,
      ),
    ].join('\n');
  },
};

if (process.argv[2] === '--measure') {
  await measureChild(process.argv[3]!, process.argv[4] === 'pooled');
}
