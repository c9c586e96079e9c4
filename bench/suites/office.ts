import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { partition } from '@docsvc/partition';
import { markdownTable } from '../../scripts/lib/doc-sections.js';
import { type BenchSuite, machineLine, medianMs } from '../lib.js';
import { SAMPLES_DIR } from './formats.js';

/**
 * Office formats file by file (docx, pptx, xlsx, xls, odt, rtf, and doc/ppt through LibreOffice when it
 * is installed), plus the peak memory of partitioning the largest document in a fresh process.
 */
const EXTENSIONS = ['.docx', '.pptx', '.xlsx', '.xls', '.odt', '.rtf', '.doc', '.ppt'];
const LEGACY = new Set(['.doc', '.ppt']);
const BIG_DOCUMENT = 'handbook-872p.docx';

function officeFiles(): string[] {
  const folders = [SAMPLES_DIR, join(SAMPLES_DIR, 'language-docs')];
  return folders
    .filter((folder) => existsSync(folder))
    .flatMap((folder) => readdirSync(folder).map((name) => join(folder, name)))
    .filter((path) => statSync(path).isFile() && EXTENSIONS.includes(extname(path).toLowerCase()))
    .sort();
}

/** Peak RSS of a fresh Node process that partitions one file (so nothing else is counted). */
function peakRssOfOneRun(path: string): number {
  const lib = JSON.stringify(join(import.meta.dirname, '../lib.ts'));
  const script = `import { readFileSync } from 'node:fs'; import { partition } from '@docsvc/partition';
    import { peakRssMiB } from ${lib};
    await partition({ data: readFileSync(${JSON.stringify(path)}), filename: ${JSON.stringify(path)} });
    console.log(peakRssMiB());`;
  const output = execFileSync(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', '--input-type=module', '-e', script],
    { cwd: join(import.meta.dirname, '../..'), encoding: 'utf8' },
  );
  return Number(output.trim().split('\n').pop());
}

export const suite: BenchSuite = {
  name: 'bench-office',
  title: 'Office formats, file by file',
  async run() {
    const rows: (string | number)[][] = [];
    for (const path of officeFiles()) {
      const name = path.slice(SAMPLES_DIR.length + 1);
      const data = readFileSync(path);
      const extension = extname(path).toLowerCase();
      let elements = 0;
      let note = '';
      let ms: number | undefined;
      try {
        ms = await medianMs(
          async () => {
            elements = (await partition({ data, filename: name })).length;
          },
          LEGACY.has(extension) ? 1 : 3,
        );
      } catch (error) {
        note = (error as { code?: string }).code ?? 'error';
      }
      rows.push([
        name,
        (data.length / 1024).toFixed(0),
        elements,
        ms === undefined ? '–' : ms.toFixed(0),
        ms === undefined ? '–' : (data.length / 1024 / 1024 / (ms / 1000)).toFixed(2),
        note,
      ]);
    }
    const big = join(SAMPLES_DIR, BIG_DOCUMENT);
    const memory = existsSync(big)
      ? `Peak RSS of one process partitioning ${BIG_DOCUMENT} (${(statSync(big).size / 1024).toFixed(0)} KiB, 872 pages): ${peakRssOfOneRun(big).toFixed(0)} MiB (Node itself with the library loaded is part of it).`
      : '';
    return `${machineLine()}; median of 3 runs per file after a warm-up (1 run for .doc/.ppt, which LibreOffice converts first).\n\n${markdownTable(['file', 'KiB', 'elements', 'ms', 'MB/s', 'error'], rows)}\n\n${memory}`;
  },
};
