import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { type Element, elementsFromJson } from '@docsvc/partition';
import type { IngestSummary } from '../pipeline/events.js';

/** Every file under `dir` (relative, slash-separated, sorted); [] when `dir` does not exist. */
export async function listFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (current: string): Promise<void> => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = await readdir(current, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) await walk(path);
      else found.push(relative(dir, path).split(sep).join('/'));
    }
  };
  await walk(dir);
  return found.sort();
}

/** Path → modification time (ms) of every file under `dir`: a snapshot to compare before and after. */
export async function snapshot(dir: string): Promise<Map<string, number>> {
  const result = new Map<string, number>();
  for (const file of await listFiles(dir)) result.set(file, (await stat(join(dir, file))).mtimeMs);
  return result;
}

/** The elements of one output file (validated: a truncated or malformed file throws). */
export async function readElements(outputDir: string, rel: string): Promise<Element[]> {
  return elementsFromJson(await readFile(join(outputDir, `${rel}.json`), 'utf8'));
}

/** Parse every non-empty line as JSON; a line that is not JSON fails with the line in the message. */
export function jsonLines(text: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new Error(`not a JSON line: ${line}`);
      }
    });
}

/** The summary event of a `--log-format json` run. */
export function jsonSummary(stderr: string): IngestSummary {
  const summary = jsonLines(stderr).find((line) => line.event === 'summary');
  if (!summary) throw new Error(`no summary line in:\n${stderr}`);
  return summary as unknown as IngestSummary;
}
