import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { partition } from '@docsvc/partition';
import { markdownTable } from '../../scripts/lib/doc-sections.js';
import { type BenchSuite, machineLine, medianMs, peakRssMiB } from '../lib.js';

/** Where the shared sample documents are, when present (CI has them beside the repo). */
export const SAMPLES_DIR = join(import.meta.dirname, '../../../shared/samples/unstructured-example-docs');

/** Extensions measured here; PDFs and images have their own suite. */
const EXTENSIONS = [
  '.txt',
  '.md',
  '.html',
  '.xml',
  '.csv',
  '.tsv',
  '.json',
  '.eml',
  '.msg',
  '.docx',
  '.pptx',
  '.xlsx',
  '.odt',
  '.epub',
  '.rtf',
  '.rst',
  '.org',
];

export const suite: BenchSuite = {
  name: 'bench-formats',
  title: 'Throughput per format (non-PDF)',
  async run() {
    const byExtension = new Map<string, { bytes: number; ms: number; files: number; failed: number }>();
    for (const name of readdirSync(SAMPLES_DIR)) {
      const path = join(SAMPLES_DIR, name);
      const extension = extname(name).toLowerCase();
      if (!statSync(path).isFile() || !EXTENSIONS.includes(extension)) continue;
      const data = readFileSync(path);
      const entry = byExtension.get(extension) ?? { bytes: 0, ms: 0, files: 0, failed: 0 };
      try {
        entry.ms += await medianMs(() => partition({ data, filename: name }), 3);
        entry.bytes += data.length;
        entry.files++;
      } catch {
        entry.failed++;
      }
      byExtension.set(extension, entry);
    }
    const rows = [...byExtension.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([extension, e]) => [
        extension,
        e.files,
        e.failed,
        (e.bytes / 1024 / 1024).toFixed(2),
        e.files ? (e.ms / e.files).toFixed(1) : '–',
        e.ms ? (e.bytes / 1024 / 1024 / (e.ms / 1000)).toFixed(2) : '–',
      ]);
    return `${machineLine()}; sample documents from ../shared/samples; median of 3 runs per file; peak RSS ${peakRssMiB().toFixed(0)} MiB.\n\n${markdownTable(['format', 'files', 'failed', 'MiB', 'ms/file', 'MB/s'], rows)}`;
  },
};
