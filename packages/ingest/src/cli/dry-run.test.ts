import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingest } from '../pipeline/ingest.js';
import { jsonLines, listFiles, snapshot } from '../test-support/outputs.js';
import { runCli } from '../test-support/run-cli.js';

/** Each test runs real CLI processes; on a busy shared machine one can take tens of seconds. */
const CLI_TIMEOUT = 240_000;

let root: string;
let input: string;
let output: string;
let work: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'ingest-dry-run-'));
  input = join(root, 'in');
  output = join(root, 'out');
  work = join(root, 'work');
  await mkdir(input, { recursive: true });
  await writeFile(join(input, 'a.txt'), 'Alpha document, left as it is.\n');
  await writeFile(join(input, 'b.txt'), 'Beta document, edited after the first run.\n');
  await writeFile(join(input, 'c.md'), '# Gamma\n\nLeft as it is too.\n');
  const first = await ingest({
    source: { type: 'local', input_path: input },
    output_dir: output,
    work_dir: work,
    num_processes: 1,
  });
  expect(first).toMatchObject({ succeeded: 3, failed: [] });
  await writeFile(join(input, 'b.txt'), 'Beta document, now with different words.\n');
  await writeFile(join(input, 'd.txt'), 'Delta document, added after the first run.\n');
}, 120_000);
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const args = (...extra: string[]) => [
  'local',
  ...['--input-path', input, '--work-dir', work, '--output-dir', output, ...extra],
];

describe('--dry-run', { timeout: CLI_TIMEOUT }, () => {
  it('lists new, changed and unchanged records with reasons, and writes nothing', async () => {
    const workBefore = await snapshot(work);
    const outputBefore = await snapshot(output);
    const result = await runCli(args('--dry-run'));
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines.slice(0, 4)).toEqual([
      expect.stringMatching(/^unchanged a\.txt {2}\(uploaded .*, same version and configuration\)$/),
      expect.stringMatching(/^changed {3}b\.txt {2}\(source version changed \(.+ → .+\)\)$/),
      expect.stringMatching(/^unchanged c\.md {2}\(uploaded /),
      'new       d.txt  (not uploaded to this destination before)',
    ]);
    expect(result.stdout).toMatch(/2 of 4 records would be processed\./);
    expect(result.stderr).toMatch(/dry run: 4 records listed, 2 would be processed; nothing was written/);
    // Nothing changed on disk: no output, no cache entry, no ledger entry.
    expect(await snapshot(work)).toEqual(workBefore);
    expect(await snapshot(output)).toEqual(outputBefore);
    expect(await listFiles(output)).not.toContain('d.txt.json');
  });

  it('prints the plan as JSON lines with --log-format json, with --reprocess as the reason where nothing else changed', async () => {
    const result = await runCli(args('--dry-run', '--reprocess', '--log-format', 'json'));
    expect(result.code).toBe(0);
    expect(jsonLines(result.stdout)).toEqual([
      { event: 'plan', record: 'a.txt', status: 'changed', reason: 'reprocess requested' },
      {
        event: 'plan',
        record: 'b.txt',
        status: 'changed',
        reason: expect.stringMatching(/^source version changed/),
      },
      { event: 'plan', record: 'c.md', status: 'changed', reason: 'reprocess requested' },
      { event: 'plan', record: 'd.txt', status: 'new', reason: 'not uploaded to this destination before' },
    ]);
    const log = jsonLines(result.stderr); // every line of the log is JSON
    expect(log[0]).toMatchObject({ event: 'start', source: 'local', destination: 'local', dry_run: true });
    expect(log.at(-1)).toMatchObject({ event: 'summary', total: 4, succeeded: 0 });
  });

  it('says which records --re-download would send through again', async () => {
    const result = await runCli(args('--dry-run', '--re-download'));
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split('\n').slice(0, 4)).toEqual([
      'changed   a.txt  (re-download requested)',
      expect.stringMatching(/^changed {3}b\.txt {2}\(source version changed/),
      'changed   c.md  (re-download requested)',
      'new       d.txt  (not uploaded to this destination before)',
    ]);
  });

  it('creates no files in a fresh work dir or output dir', async () => {
    const freshWork = join(root, 'fresh-work');
    const freshOutput = join(root, 'fresh-out');
    const result = await runCli([
      'local',
      ...['--input-path', input, '--work-dir', freshWork, '--output-dir', freshOutput, '--dry-run'],
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/4 of 4 records would be processed\./);
    expect(await listFiles(freshWork)).toEqual([]);
    expect(await listFiles(freshOutput)).toEqual([]);
  });
});
