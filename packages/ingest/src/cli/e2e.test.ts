import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ERROR_STATUS } from '@docsvc/partition';
import picomatch from 'picomatch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonLines, jsonSummary, listFiles, readElements } from '../test-support/outputs.js';
import { runCli } from '../test-support/run-cli.js';

/**
 * local → local over the shared sample documents (skipped when they are absent), by a real
 * `service-ingest` process: every listed file is either written as a valid element list or reported
 * with a typed reason, and the exit code is 1 exactly when something failed.
 */
const SAMPLES = resolve(process.env.DOCSVC_SAMPLES ?? '/work/shared/samples/unstructured-example-docs');

/**
 * A subset that keeps the run to a minute or two with --strategy fast: the text, markup, office, mail and
 * data formats (a 1225-page text and an 872-page docx among them), a few small PDFs, one image, and files
 * that must fail with a typed reason (an encrypted PDF, mail and workbook, an image under fast, and types
 * we do not partition: yaml, zip, wav).
 */
const GLOBS = [
  '*.txt',
  '*.md',
  '*.html',
  '*.htm',
  '*.xml',
  '*.rst',
  '*.org',
  '*.csv',
  '*.tsv',
  '*.json',
  '*.ndjson',
  '*.eml',
  '*.msg',
  '*.docx',
  '*.pptx',
  '*.xlsx',
  '*.odt',
  '*.rtf',
  '*.epub',
  '*.yaml',
  '*.zip',
  '*.wav',
  'pdf/fake-memo*.pdf',
  'pdf/list-item-example.pdf',
  'pdf/password.pdf',
  'img/example.jpg',
];

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'ingest-e2e-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** What the local source should list for these globs, found independently of the source. */
async function expectedRecords(globs: string[]): Promise<string[]> {
  const matchers = globs.map((glob) => picomatch(glob, { dot: true, matchBase: !glob.includes('/') }));
  return (await listFiles(SAMPLES)).filter((rel) => matchers.some((match) => match(rel)));
}

describe.skipIf(!existsSync(SAMPLES))('service-ingest local → local on the sample documents', () => {
  it('writes every file or reports it with a typed reason; exit code 1 because some failed', async () => {
    const expected = await expectedRecords(GLOBS);
    const output = join(root, 'out');
    const result = await runCli([
      'local',
      ...['--input-path', SAMPLES, '--recursive', '--file-glob', GLOBS.join(',')],
      ...['--strategy', 'fast', '--num-processes', '2', '--log-format', 'json'],
      ...['--work-dir', join(root, 'work'), '--output-dir', output],
    ]);
    const log = jsonLines(result.stderr); // every line of the log is JSON: no stray library output
    const summary = jsonSummary(result.stderr);
    const listed = log.filter((line) => line.event === 'listed').map((line) => String(line.record));
    expect(listed.sort()).toEqual(expected);

    const failed = new Map(summary.failed.map((failure) => [failure.record, failure]));
    const written = new Set(await listFiles(output));
    for (const rel of expected) {
      const failure = failed.get(rel);
      if (failure) {
        expect(written.has(`${rel}.json`), rel).toBe(false);
        expect(failure.step, rel).toBe('partition');
        expect(Object.keys(ERROR_STATUS), `${rel}: ${failure.code}`).toContain(failure.code);
        expect(failure.message.length, rel).toBeGreaterThan(10);
      } else {
        expect(written.has(`${rel}.json`), rel).toBe(true);
        await readElements(output, rel); // parses and validates
      }
    }
    expect(written.size).toBe(expected.length - failed.size);
    expect(summary.total).toBe(expected.length);
    expect(summary.succeeded + summary.failed.length).toBe(summary.total);

    // The files that must fail, with their reasons.
    expect(failed.get('pdf/password.pdf')?.code).toBe('encrypted_document');
    expect(failed.get('eml/fake-encrypted.eml')?.code).toBe('encrypted_document');
    expect(failed.get('password_protected.xlsx')?.code).toBe('encrypted_document');
    expect(failed.get('img/example.jpg')?.code).toBe('strategy_not_available');
    for (const rel of ['simple.yaml', 'simple.zip', 'CantinaBand3.wav'])
      expect(failed.get(rel)?.code).toBe('unsupported_file_type');
    // ...and a few that must succeed, with the content they hold.
    const memo = await readElements(output, 'pdf/fake-memo.pdf');
    expect(memo.map((e) => e.text).join('\n')).toMatch(/To Whom it May Concern/i);
    const email = await readElements(output, 'eml/fake-email.eml');
    expect(email.length).toBeGreaterThan(0);

    expect(failed.size).toBeGreaterThan(0);
    expect(result.code).toBe(1);
  }, 600_000);

  it('exits 0 when nothing failed', async () => {
    const result = await runCli([
      'local',
      ...['--input-path', SAMPLES, '--recursive', '--file-glob', '*.md,*.rst,*.org'],
      ...['--work-dir', join(root, 'work-ok'), '--output-dir', join(root, 'out-ok')],
    ]);
    const expected = await expectedRecords(['*.md', '*.rst', '*.org']);
    expect(result.stderr).toContain(
      `${expected.length} of ${expected.length} records processed, 0 unchanged, 0 failed`,
    );
    expect(result.code).toBe(0);
  }, 300_000);
});
