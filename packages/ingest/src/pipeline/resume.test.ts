import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type RecordDescriptor, registerConnector } from '@docsvc/connectors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeDocuments } from '../test-support/documents.js';
import { jsonLines, jsonSummary, listFiles, readElements, snapshot } from '../test-support/outputs.js';
import { runCli, spawnCli } from '../test-support/run-cli.js';
import type { IngestEvent } from './events.js';
import { ingest } from './ingest.js';

/** Each test runs real CLI processes; on a busy shared machine one can take tens of seconds. */
const CLI_TIMEOUT = 240_000;

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'ingest-resume-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Files of a work-dir folder that are complete entries (not temporaries of an interrupted write). */
async function entries(dir: string): Promise<string[]> {
  return (await listFiles(dir)).filter((file) => file.endsWith('.json'));
}

describe('a run killed with SIGKILL resumes where it stopped', () => {
  const COUNT = 210;

  it('completes the output on the rerun without redoing work finished before the kill', async () => {
    const input = join(root, 'kill-in');
    const output = join(root, 'kill-out');
    const work = join(root, 'kill-work');
    const documents = await writeDocuments(input, COUNT);
    const args = [
      'local',
      ...['--input-path', input, '--recursive', '--work-dir', work, '--output-dir', output],
      ...['--num-processes', '2', '--log-format', 'json'],
    ];

    // First run: kill it as soon as some outputs exist.
    const first = spawnCli(args);
    let exited = false;
    void first.result.then(() => {
      exited = true;
    });
    while (!exited && (await entries(output)).length < 30) await sleep(50);
    first.child.kill('SIGKILL');
    const killed = await first.result;
    expect(killed.signal).toBe('SIGKILL');

    const outputsAtKill = await entries(output);
    const ledgersAtKill = await entries(join(work, 'ledgers'));
    const partitionsAtKill = await entries(join(work, 'cache/partition'));
    expect(outputsAtKill.length).toBeGreaterThanOrEqual(30);
    expect(outputsAtKill.length).toBeLessThan(COUNT); // really mid-run
    expect(ledgersAtKill.length).toBeLessThanOrEqual(outputsAtKill.length);
    const before = await snapshot(output);

    // Second run: completes.
    const rerun = await runCli(args);
    expect(rerun.code).toBe(0);
    const summary = jsonSummary(rerun.stderr);
    expect(summary.total).toBe(COUNT);
    expect(summary.failed).toEqual([]);
    // Records whose upload was recorded before the kill are not touched again...
    expect(summary.skipped).toBe(ledgersAtKill.length);
    expect(summary.succeeded).toBe(COUNT - ledgersAtKill.length);
    // ...and every partition computed before the kill is reused, none is computed twice.
    expect(summary.steps.partition.cached).toBe(partitionsAtKill.length - ledgersAtKill.length);
    expect(summary.steps.partition.done).toBe(COUNT - partitionsAtKill.length);

    // The output is complete, and every file is a valid element list.
    const outputs = await entries(output);
    expect(outputs).toEqual(documents.map((rel) => `${rel}.json`).sort());
    for (const rel of documents) expect((await readElements(output, rel)).length).toBeGreaterThan(0);

    // Skipped records kept their files from the first run (not rewritten).
    const skipped = jsonLines(rerun.stderr)
      .filter((line) => line.event === 'skipped')
      .map((line) => `${line.record}.json`);
    expect(skipped).toHaveLength(ledgersAtKill.length);
    const after = await snapshot(output);
    for (const file of skipped) expect(after.get(file)).toBe(before.get(file));
  }, 300_000);
});

describe('rerunning after changes', { timeout: CLI_TIMEOUT }, () => {
  let input: string;
  let output: string;
  let work: string;
  let documents: string[];
  const run = (extra: Record<string, unknown> = {}) => {
    const events: IngestEvent[] = [];
    return ingest({
      source: { type: 'local', input_path: input, recursive: true },
      output_dir: output,
      work_dir: work,
      num_processes: 1,
      onEvent: (event) => events.push(event),
      ...extra,
    }).then((summary) => ({ summary, events }));
  };

  beforeAll(async () => {
    input = join(root, 'edit-in');
    output = join(root, 'edit-out');
    work = join(root, 'edit-work');
    documents = await writeDocuments(input, 7);
    const first = await run();
    expect(first.summary).toMatchObject({ succeeded: 7, failed: [] });
  }, 120_000);

  it('skips every record when nothing changed', async () => {
    const { summary, events } = await run();
    expect(summary).toMatchObject({ total: 7, succeeded: 0, skipped: 7, failed: [] });
    expect(summary.steps.partition).toEqual({ done: 0, cached: 0, failed: 0 });
    expect(events.filter((e) => e.type === 'skipped')).toHaveLength(7);
  });

  it('reprocesses only an edited file (and the CLI says so)', async () => {
    const edited = documents.find((rel) => rel.endsWith('.md'))!;
    await writeFile(
      join(input, edited),
      '# Edited heading\n\nThis paragraph was rewritten after the first run.\n',
    );
    const result = await runCli([
      'local',
      ...['--input-path', input, '--recursive', '--num-processes', '1'],
      ...['--work-dir', work, '--output-dir', output],
    ]);
    expect(result.code).toBe(0);
    // The library run before wrote the ledger; the CLI (which spells out every default) reads the same one.
    expect(result.stderr).toMatch(/\n1 of 7 records processed, 6 unchanged, 0 failed/);
    expect(result.stderr).toMatch(/steps: index 7, download 1, partition 1, stage 1, upload 1/);
    const elements = await readElements(output, edited);
    expect(elements.map((e) => e.text)).toEqual([
      'Edited heading',
      'This paragraph was rewritten after the first run.',
    ]);
  }, 120_000);

  it('re-uploads a touched file (new version) but reuses its partition output', async () => {
    const touched = documents.find((rel) => rel.endsWith('.docx'))!;
    const when = new Date('2031-05-06T07:08:09.000Z');
    await utimes(join(input, touched), when, when);
    const { summary, events } = await run();
    expect(summary).toMatchObject({ succeeded: 1, skipped: 6 });
    expect(summary.steps.partition).toEqual({ done: 0, cached: 1, failed: 0 });
    const listed = events.find((e) => e.type === 'listed' && e.record.rel_path === touched);
    expect(listed).toMatchObject({ status: 'changed', reason: expect.stringMatching(/version changed/) });
    // The reused elements carry the new modification time, like a fresh partition would.
    const elements = await readElements(output, touched);
    for (const element of elements) {
      expect(element.metadata.last_modified).toBe(when.toISOString());
      expect(element.metadata.data_source?.date_modified).toBe(when.toISOString());
    }
  });

  it('reprocess runs every step again', async () => {
    const { summary } = await run({ reprocess: true });
    expect(summary).toMatchObject({ succeeded: 7, skipped: 0 });
    expect(summary.steps.partition).toEqual({ done: 7, cached: 0, failed: 0 });
  });

  it('re_download reads every record again (local reads in place) and reuses partition outputs', async () => {
    const { summary, events } = await run({ re_download: true });
    expect(summary).toMatchObject({ succeeded: 7, skipped: 0 });
    expect(summary.steps.download).toEqual({ done: 7, cached: 0, failed: 0 });
    expect(summary.steps.partition).toEqual({ done: 0, cached: 7, failed: 0 });
    for (const event of events.filter((e) => e.type === 'listed'))
      expect(event).toMatchObject({ status: 'changed', reason: 're-download requested' });
  });
});

describe('a source that downloads (records kept in the work dir)', () => {
  // An in-memory source whose fetches are counted: what a remote source (engine_b...) looks like to the
  // pipeline, without a server.
  const records = new Map<string, { version: string; text: string }>([
    ['alpha', { version: '1', text: 'Alpha record body text.' }],
    ['beta', { version: '1', text: 'Beta record body text.' }],
    ['gamma', { version: '1', text: 'Gamma record body text.' }],
  ]);
  let fetches = 0;
  const describeRecord = (id: string, version: string): RecordDescriptor => ({
    identifier: id,
    version,
    display_name: id,
    rel_path: `${id}.txt`,
    data_source: { url: `memory://${id}`, version, record_locator: { id } },
  });
  registerConnector({
    type: 'test_downloading_source',
    description: 'in-memory records fetched one by one (tests)',
    createSource: () => ({
      type: 'test_downloading_source',
      readsInPlace: false,
      async precheck() {},
      async *list() {
        for (const [id, record] of records) yield describeRecord(id, record.version);
      },
      async fetch(record) {
        fetches++;
        const { text } = records.get(record.identifier)!;
        return { descriptor: record, data: Buffer.from(text), filename: record.rel_path };
      },
    }),
  });

  const run = async (extra: Record<string, unknown> = {}) => {
    fetches = 0;
    const summary = await ingest({
      source: { type: 'test_downloading_source' },
      output_dir: join(root, 'download-out'),
      work_dir: join(root, 'download-work'),
      num_processes: 1,
      ...extra,
    });
    return { summary, fetches };
  };

  it('fetches each record once, and again only when its version changes or re_download is given', async () => {
    const first = await run();
    expect(first).toMatchObject({ fetches: 3, summary: { succeeded: 3 } });
    expect(await listFiles(join(root, 'download-work/downloads'))).toHaveLength(6); // bytes + meta each

    const unchanged = await run();
    expect(unchanged).toMatchObject({ fetches: 0, summary: { skipped: 3, succeeded: 0 } });

    records.get('beta')!.version = '2'; // new version, same bytes
    const changed = await run();
    expect(changed).toMatchObject({ fetches: 1, summary: { succeeded: 1, skipped: 2 } });
    expect(changed.summary.steps.partition).toEqual({ done: 0, cached: 1, failed: 0 });

    // reprocess recomputes every step but the download: the kept copy is of the same version.
    const reprocessed = await run({ reprocess: true });
    expect(reprocessed).toMatchObject({ fetches: 0, summary: { succeeded: 3 } });
    expect(reprocessed.summary.steps.download).toEqual({ done: 0, cached: 3, failed: 0 });
    expect(reprocessed.summary.steps.partition).toEqual({ done: 3, cached: 0, failed: 0 });

    // re_download fetches every record again; identical bytes reuse the partition outputs.
    const redownloaded = await run({ re_download: true });
    expect(redownloaded).toMatchObject({ fetches: 3, summary: { succeeded: 3 } });
    expect(redownloaded.summary.steps.download).toEqual({ done: 3, cached: 0, failed: 0 });
    expect(redownloaded.summary.steps.partition).toEqual({ done: 0, cached: 3, failed: 0 });

    const beta = await readElements(join(root, 'download-out'), 'beta.txt');
    expect(beta[0]!.text).toBe('Beta record body text.');
    expect(beta[0]!.metadata.data_source).toMatchObject({ url: 'memory://beta', version: '2' });
  }, 60_000);
});
