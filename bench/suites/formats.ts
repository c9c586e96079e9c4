import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { extname, join, relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { isServiceError, partition } from '@docsvc/partition';
import { markdownTable } from '../../scripts/lib/doc-sections.js';
import { type BenchSuite, machineLine, peakRssMiB } from '../lib.js';

/** Where the shared sample documents are, when present (CI has them beside the repo). */
export const SAMPLES_DIR = join(import.meta.dirname, '../../../shared/samples/unstructured-example-docs');

/**
 * Extensions measured here, in every folder of the samples. PDFs (bench-pdf) and images (bench-ocr) have
 * their own suites; .doc/.ppt are converted by LibreOffice first and are measured file by file in
 * bench-office. The metric fixtures in test_evaluate_files are not documents.
 */
const EXTENSIONS = new Set([
  '.txt',
  '.md',
  '.rst',
  '.org',
  '.html',
  '.htm',
  '.xml',
  '.csv',
  '.tsv',
  '.json',
  '.ndjson',
  '.eml',
  '.msg',
  '.docx',
  '.pptx',
  '.xlsx',
  '.xls',
  '.odt',
  '.epub',
  '.rtf',
]);
const RUNS = 3;

interface Measure {
  wallMs: number;
  cpuMs: number;
}

/** Median wall time and median CPU time (user + system, all threads) of RUNS runs after a warm-up. */
async function measure(fn: () => Promise<unknown>): Promise<Measure> {
  await fn();
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const cpuBefore = process.cpuUsage();
    const start = performance.now();
    await fn();
    walls.push(performance.now() - start);
    const cpu = process.cpuUsage(cpuBefore);
    cpus.push((cpu.user + cpu.system) / 1000);
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return { wallMs: median(walls), cpuMs: median(cpus) };
}

function* documents(dir: string): Generator<string> {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== 'test_evaluate_files') yield* documents(path);
    } else if (EXTENSIONS.has(extname(name).toLowerCase())) yield path;
  }
}

export const suite: BenchSuite = {
  name: 'bench-formats',
  title: 'Throughput per format (non-PDF)',
  async run() {
    if (!existsSync(SAMPLES_DIR))
      return `${machineLine()}; the sample documents (../shared/samples) are absent.`;
    const load = loadavg()[0]!.toFixed(1);
    const byExtension = new Map<string, { bytes: number; wallMs: number; cpuMs: number; files: number }>();
    const refused: string[] = [];
    for (const path of documents(SAMPLES_DIR)) {
      const name = relative(SAMPLES_DIR, path);
      const extension = extname(name).toLowerCase();
      const data = readFileSync(path);
      const entry = byExtension.get(extension) ?? { bytes: 0, wallMs: 0, cpuMs: 0, files: 0 };
      byExtension.set(extension, entry);
      try {
        const { wallMs, cpuMs } = await measure(() => partition({ data, filename: name.split('/').pop() }));
        entry.wallMs += wallMs;
        entry.cpuMs += cpuMs;
        entry.bytes += data.length;
        entry.files++;
      } catch (error) {
        // Only typed refusals are expected here (encrypted samples); anything else is a bug to see.
        refused.push(`${name} (${isServiceError(error) ? error.code : `untyped: ${String(error)}`})`);
      }
    }
    const MB = 1024 * 1024;
    const rows = [...byExtension.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([extension, e]) => [
        extension,
        e.files,
        (e.bytes / MB).toFixed(2),
        e.files ? (e.wallMs / e.files).toFixed(1) : '–',
        e.files ? (e.cpuMs / e.files).toFixed(1) : '–',
        e.cpuMs ? (e.bytes / MB / (e.cpuMs / 1000)).toFixed(2) : '–',
        e.wallMs ? (e.bytes / MB / (e.wallMs / 1000)).toFixed(2) : '–',
      ]);
    const table = markdownTable(
      ['format', 'files', 'MiB', 'ms/file (wall)', 'CPU ms/file', 'MB per CPU-s', 'MB/s (wall)'],
      rows,
    );
    const refusals = refused.length
      ? `\n\nRefused with a typed error, so not timed: ${refused.join(', ')}.`
      : '';
    return `${machineLine()}; every sample document of these formats in ../shared/samples (all folders); median of ${RUNS} runs per file after a warm-up, default options; load average ${load} when the suite started (other work shares these 2 cores: wall times vary, CPU times, user + system of all threads, much less); peak RSS ${peakRssMiB().toFixed(0)} MiB. PDFs, images and .doc/.ppt have their own sections below.\n\n${table}${refusals}`;
  },
};
