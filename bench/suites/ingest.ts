import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { IngestSummary } from '../../packages/ingest/src/pipeline/events.js';
import { type Format, makeDocument } from '../../packages/ingest/src/test-support/documents.js';
import { listFiles } from '../../packages/ingest/src/test-support/outputs.js';
import { markdownTable } from '../../scripts/lib/doc-sections.js';
import { type BenchSuite, machineLine } from '../lib.js';

/**
 * `service-ingest local → local` as users run it: a child process per run, throughput from the run's own
 * summary, memory as the peak resident set of that process (worker threads included) read from
 * /proc/<pid>/status while it runs.
 */

const ROOT = join(import.meta.dirname, '../..');
/**
 * The built command, as users run it (`npm run bench` builds first). From sources every worker thread
 * loads the libraries through tsx, which costs about 230 MiB more per process; DOCSVC_BENCH_FROM_SOURCES=1
 * measures that way anyway (when the build is broken).
 */
const BUILT = join(ROOT, 'packages/ingest/dist/cli/main.js');
const FROM_SOURCES = process.env.DOCSVC_BENCH_FROM_SOURCES === '1' || !existsSync(BUILT);
const COMMAND = FROM_SOURCES
  ? ['--conditions=source', '--import', 'tsx', join(ROOT, 'packages/ingest/src/cli/main.ts')]
  : [BUILT];
const SAMPLES = resolve(process.env.DOCSVC_SAMPLES ?? '/work/shared/samples/unstructured-example-docs');
/** Formats of the generated many-file runs: small files whose partitioning is cheap, so the engine shows. */
const SMALL_FORMATS: Format[] = ['txt', 'md', 'html', 'csv', 'eml'];

interface Measured {
  code: number | null;
  wallMs: number;
  summary: IngestSummary;
  /** Peak resident set (VmHWM) of the CLI process, MiB. */
  peakRssMiB: number;
  /** Resident set when a quarter, half and three quarters of the records were done, MiB. */
  rssAtQuarters: number[];
  /** CPU time of the process (all threads, user + system) at the last sample before it exited, seconds. */
  cpuSeconds: number;
}

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ: 100 on Linux x86-64 and arm64). */
const TICKS_PER_SECOND = 100;

async function procStatus(pid: number): Promise<{ hwm: number; rss: number; cpu: number } | undefined> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kib = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    // stat: "pid (comm) state ..." — utime and stime are the 14th and 15th fields.
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cpu = (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
    return { hwm: kib('VmHWM') / 1024, rss: kib('VmRSS') / 1024, cpu };
  } catch {
    return undefined; // exited, or not Linux
  }
}

/** Run the CLI with a JSON log, sampling its memory every 100 ms. */
async function runIngest(args: string[], total: number): Promise<Measured> {
  const started = performance.now();
  const child = spawn(process.execPath, [...COMMAND, ...args, '--log-format', 'json'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  let finished = 0;
  let peakRssMiB = 0;
  let cpuSeconds = 0;
  const rssAtQuarters: number[] = [];
  child.stderr.on('data', (chunk: Buffer) => {
    const text = chunk.toString();
    stderr += text;
    finished += (text.match(/"event":"(done|failed|skipped)"/g) ?? []).length;
  });
  const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
  let running = true;
  void exited.then(() => {
    running = false;
  });
  while (running) {
    const status = await procStatus(child.pid!);
    if (status) {
      peakRssMiB = Math.max(peakRssMiB, status.hwm);
      cpuSeconds = status.cpu;
      while (rssAtQuarters.length < 3 && finished >= ((rssAtQuarters.length + 1) * total) / 4)
        rssAtQuarters.push(status.rss);
    }
    await Promise.race([exited, new Promise((done) => setTimeout(done, 100))]);
  }
  const code = await exited;
  const line = stderr.split('\n').find((l) => l.includes('"event":"summary"'));
  if (!line) throw new Error(`service-ingest gave no summary (exit ${code}):\n${stderr.slice(-2000)}`);
  return {
    code,
    wallMs: performance.now() - started,
    summary: JSON.parse(line) as IngestSummary,
    peakRssMiB,
    rssAtQuarters,
    cpuSeconds,
  };
}

/** Pages written: the highest page_number of each output file, 1 for formats without pages. */
async function countPages(outputDir: string): Promise<number> {
  let pages = 0;
  for (const file of await listFiles(outputDir)) {
    if (!file.endsWith('.json')) continue;
    const elements = JSON.parse(await readFile(join(outputDir, file), 'utf8')) as {
      metadata?: { page_number?: number };
    }[];
    pages += Math.max(1, ...elements.map((e) => e.metadata?.page_number ?? 1));
  }
  return pages;
}

const rate = (count: number, ms: number) => (count / (ms / 1000)).toFixed(1);
const mib = (value: number) => value.toFixed(0);

async function sampleSetRows(root: string): Promise<(string | number)[][]> {
  const rows: (string | number)[][] = [];
  const total = (await listFiles(SAMPLES)).length;
  for (const processes of [1, 2]) {
    const work = join(root, `samples-work-${processes}`);
    const output = join(root, `samples-out-${processes}`);
    const args = ['local', '--input-path', SAMPLES, '--recursive', '--strategy', 'fast'];
    const dirs = ['--num-processes', String(processes), '--work-dir', work, '--output-dir', output];
    const run = await runIngest([...args, ...dirs], total);
    const pages = await countPages(output);
    const { summary } = run;
    rows.push([
      `samples, --num-processes ${processes}`,
      `${summary.total} (${summary.failed.length} failed)`,
      pages,
      (summary.ms / 1000).toFixed(1),
      rate(summary.total, summary.ms),
      rate(pages, summary.ms),
      run.cpuSeconds.toFixed(1),
      rate(summary.total, run.cpuSeconds * 1000),
      mib(run.peakRssMiB),
    ]);
    if (processes === 2) {
      // Same run again: every record is unchanged, so this is the cost of listing and checking ledgers.
      const again = await runIngest([...args, ...dirs], total);
      rows.push([
        'samples, rerun with nothing changed',
        `${again.summary.total} (${again.summary.skipped} unchanged, ${again.summary.failed.length} failed again)`,
        0,
        (again.summary.ms / 1000).toFixed(1),
        rate(again.summary.total, again.summary.ms),
        '–',
        again.cpuSeconds.toFixed(1),
        rate(again.summary.total, again.cpuSeconds * 1000),
        mib(again.peakRssMiB),
      ]);
    }
  }
  return rows;
}

async function writeSmallFiles(dir: string, count: number): Promise<void> {
  for (let n = 0; n < count; n++) {
    const format = SMALL_FORMATS[n % SMALL_FORMATS.length]!;
    const path = join(
      dir,
      `d${String(Math.floor(n / 500)).padStart(2, '0')}`,
      `f${String(n).padStart(5, '0')}.${format}`,
    );
    if (n % 500 === 0) await mkdir(dirname(path), { recursive: true });
    await writeFile(path, await makeDocument(format, n));
  }
}

async function manyFilesRows(root: string): Promise<(string | number)[][]> {
  const rows: (string | number)[][] = [];
  for (const count of [1_000, 10_000]) {
    const input = join(root, `small-${count}`);
    await writeSmallFiles(input, count);
    const args = ['local', '--input-path', input, '--recursive', '--num-processes', '2'];
    const run = await runIngest(
      [
        ...args,
        '--work-dir',
        join(root, `small-work-${count}`),
        '--output-dir',
        join(root, `small-out-${count}`),
      ],
      count,
    );
    const { summary } = run;
    rows.push([
      count.toLocaleString('en-US'),
      summary.failed.length,
      (summary.ms / 1000).toFixed(1),
      rate(summary.total, summary.ms),
      run.cpuSeconds.toFixed(1),
      rate(summary.total, run.cpuSeconds * 1000),
      run.rssAtQuarters.map(mib).join(' / ') || '–',
      mib(run.peakRssMiB),
    ]);
    await rm(input, { recursive: true, force: true });
  }
  return rows;
}

export const suite: BenchSuite = {
  name: 'bench-ingest',
  title: 'Batch ingest (service-ingest local → local)',
  async run() {
    const loadBefore = loadavg()[0]!;
    const root = await mkdtemp(join(tmpdir(), 'bench-ingest-'));
    try {
      const sampleRows = existsSync(SAMPLES) ? await sampleSetRows(root) : [];
      const loadMiddle = loadavg()[0]!;
      const manyRows = await manyFilesRows(root);
      const loadAfter = loadavg()[0]!;
      return [
        `${machineLine()}; 1-minute load average ${loadBefore.toFixed(1)} at the start, ${loadMiddle.toFixed(1)} after the sample-set runs, ${loadAfter.toFixed(1)} at the end (2 cores, shared with other work: wall times are higher than on an idle machine).`,
        `Each run is a \`service-ingest\` child process (${FROM_SOURCES ? 'from the TypeScript sources through tsx, which adds about 230 MiB per process' : 'the built JavaScript'}), with a fresh work dir and output dir; times are the run's own summary (listing to last upload, without process start-up). Peak RSS is VmHWM of the process, worker threads included, sampled every 100 ms.`,
        '',
        sampleRows.length > 0
          ? [
              `Sample set (${SAMPLES.split('/').at(-1)}, every file, \`--strategy fast\`; images fail under fast and count as listed files). Pages: the highest page_number of each output file, 1 for formats without pages.`,
              '',
              markdownTable(
                [
                  'run',
                  'files',
                  'pages',
                  'seconds',
                  'files/s',
                  'pages/s',
                  'CPU s',
                  'files per CPU-s',
                  'peak RSS MiB',
                ],
                sampleRows,
              ),
              '',
              "Seconds and files/s are wall-clock (from listing to the last upload); CPU s is the process's own CPU time, all threads (not LibreOffice, which converts the .doc, .ppt and .xls files in a process of its own), and depends far less on the other work on the machine. Two worker threads can only beat one when a second core is free; they also cost CPU of their own (each loads the libraries, and documents and elements are copied between threads). The rerun lists every file, finds its ledger entry and skips it; failed files are tried again.",
            ].join('\n')
          : 'Sample set: absent on this machine, not measured.',
        '',
        `Generated small files (${SMALL_FORMATS.join(', ')} in turn, 0.2–0.6 KB each, 500 per folder), \`--num-processes 2\`. Memory should not grow with the number of files: RSS at a quarter, half and three quarters of the records, then the peak.`,
        '',
        markdownTable(
          [
            'files',
            'failed',
            'seconds',
            'files/s',
            'CPU s',
            'files per CPU-s',
            'RSS at ¼ / ½ / ¾ (MiB)',
            'peak RSS MiB',
          ],
          manyRows,
        ),
        '',
        'Most of the resident set is the code of the partition library, loaded by the main thread and by each of the two workers. What the number of files adds is the difference between the rows; files/s of the short run includes starting the workers.',
      ].join('\n');
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  },
};
