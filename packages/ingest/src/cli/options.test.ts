import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Element, elementsFromBase64Gzip } from '@docsvc/partition';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePng, writeDocuments } from '../test-support/documents.js';
import { jsonLines, listFiles, readElements } from '../test-support/outputs.js';
import { runCli } from '../test-support/run-cli.js';

/**
 * Every processor option, and the SPEC 4.6 options that apply to local runs, given on the command line of
 * a real `service-ingest` process and shown to take effect in what it writes. (The partition endpoint
 * options are in pipeline/partition-api.test.ts, --dry-run in dry-run.test.ts, --reprocess and
 * --re-download in pipeline/resume.test.ts.)
 */

/** Each test runs real CLI processes; on a busy shared machine one can take tens of seconds. */
const CLI_TIMEOUT = 240_000;

let root: string;
/** A report (heading and paragraphs) and a note. */
let docs: string;
/** a-bad.bin (unsupported, listed first), b.txt, c.txt. */
let mixed: string;
let runs = 0;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const REPORT = [
  '# Annual report',
  '',
  'The company grew in every region this year, and the board approved the plan for next year.',
  '',
  'Revenue rose by a tenth while costs stayed flat, which left more room for research and hiring.',
  '',
  '## Outlook',
  '',
  'Alice Smith, the chief executive of Acme Corporation, expects further growth in Paris and Berlin.',
  '',
  'The team will review the budget, the schedule and the supplier contracts before the summer.',
  '',
].join('\n');

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'ingest-options-'));
  docs = join(root, 'docs');
  mixed = join(root, 'mixed');
  await mkdir(docs, { recursive: true });
  await mkdir(mixed, { recursive: true });
  await writeFile(join(docs, 'report.md'), REPORT);
  await writeFile(join(docs, 'notes.txt'), 'Meeting notes\n\nThe budget review moved to Friday.\n');
  await writeFile(join(mixed, 'a-bad.bin'), Buffer.from([0, 1, 2, 3, 254, 255, 0, 9, 8, 7]));
  await writeFile(join(mixed, 'b.txt'), 'Second file, a plain note.\n');
  await writeFile(join(mixed, 'c.txt'), 'Third file, another plain note.\n');
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Run `service-ingest local` over `input` into fresh output and work dirs. */
async function ingestCli(input: string, flags: string[], env: NodeJS.ProcessEnv = {}) {
  runs++;
  const output = join(root, `out-${runs}`);
  const work = join(root, `work-${runs}`);
  const result = await runCli(
    ['local', '--input-path', input, '--work-dir', work, '--output-dir', output, ...flags],
    env,
  );
  return { ...result, output, work };
}

describe('processor options', { timeout: CLI_TIMEOUT }, () => {
  it('--num-processes 1 and 2 write identical outputs (and --work-dir holds the caches)', async () => {
    const input = join(root, 'many');
    const documents = await writeDocuments(input, 14);
    // date_processed is the time of processing: the one field expected to differ between two runs.
    const flags = ['--recursive', '--metadata-exclude', 'data_source.date_processed'];
    const one = await ingestCli(input, [...flags, '--num-processes', '1']);
    const two = await ingestCli(input, [...flags, '--num-processes', '2']);
    expect([one.code, two.code]).toEqual([0, 0]);
    expect(await listFiles(one.output)).toEqual(documents.map((rel) => `${rel}.json`));
    for (const rel of documents) {
      const a = await readFile(join(one.output, `${rel}.json`), 'utf8');
      const b = await readFile(join(two.output, `${rel}.json`), 'utf8');
      expect(b).toBe(a);
      expect(a).not.toContain('date_processed');
    }
    for (const run of [one, two]) {
      expect(
        (await listFiles(join(run.work, 'cache/partition'))).filter((f) => f.endsWith('.json')),
      ).toHaveLength(14);
      expect(await listFiles(join(run.work, 'ledgers'))).toHaveLength(14);
    }
  });

  it('keeps its work dir under XDG_CACHE_HOME by default', async () => {
    const cacheHome = join(root, 'xdg');
    const output = join(root, 'out-xdg');
    const result = await runCli(['local', '--input-path', docs, '--output-dir', output], {
      XDG_CACHE_HOME: cacheHome,
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`work dir ${join(cacheHome, 'docsvc', 'ingest')}`);
    expect(await listFiles(join(cacheHome, 'docsvc/ingest/cache/partition'))).toHaveLength(2);
  });

  it('reports a failing record and goes on; exit code 1', async () => {
    const result = await ingestCli(mixed, ['--num-processes', '1']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^service-ingest: local → local, work dir /);
    expect(result.stderr).toMatch(/FAILED {2}a-bad\.bin: \[partition\] unsupported_file_type: /);
    expect(await listFiles(result.output)).toEqual(['b.txt.json', 'c.txt.json']);
  });

  it('--raise-on-error stops at the first failing record; exit code 1', async () => {
    const result = await ingestCli(mixed, [
      '--raise-on-error',
      '--num-processes',
      '1',
      '--max-connections',
      '1',
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/error: a-bad\.bin: \[partition\] /);
    expect(await listFiles(result.output)).toEqual([]);
  });

  it('--verbose logs every record and step', async () => {
    const result = await ingestCli(docs, ['--verbose']);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^ {2}partition report\.md \d+ ms$/m);
    expect(result.stderr).toMatch(/^ {2}upload {4}notes\.txt \d+ ms$/m);
    expect(result.stderr).toMatch(/^ok {6}report\.md \(\d+ elements, \d+ ms\)$/m);
  });

  it('--quiet prints only failures and the summary', async () => {
    const result = await ingestCli(mixed, ['--quiet']);
    expect(result.code).toBe(1);
    const lines = result.stderr.split('\n').filter((line) => line.trim() !== '');
    expect(lines).toEqual([
      expect.stringMatching(/^FAILED {2}a-bad\.bin: \[partition\] unsupported_file_type: /),
      expect.stringMatching(/^2 of 3 records processed, 0 unchanged, 1 failed, 2 elements, [\d.]+ s$/),
      'steps: index 3, download 3, partition 2 (1 failed), stage 2, upload 2',
      'Failed records:',
      expect.stringMatching(/^ {2}a-bad\.bin: \[partition\] unsupported_file_type: /),
    ]);
  });

  it('--quiet with --verbose is a usage error (exit code 2)', async () => {
    const result = await ingestCli(docs, ['--quiet', '--verbose']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--quiet and --verbose cannot be used together/);
    expect(await listFiles(result.output)).toEqual([]);
  });

  it('--log-format json writes one JSON object per line, and nothing else', async () => {
    const result = await ingestCli(mixed, ['--log-format', 'json', '--num-processes', '1']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    const lines = jsonLines(result.stderr); // throws on any line that is not JSON
    const events = lines.map((line) => line.event);
    expect(events[0]).toBe('start');
    expect(events.at(-1)).toBe('summary');
    expect(events.filter((e) => e === 'listed')).toHaveLength(3);
    expect(events.filter((e) => e === 'done')).toHaveLength(2);
    expect(lines.find((line) => line.event === 'failed')).toMatchObject({
      record: 'a-bad.bin',
      step: 'partition',
      code: 'unsupported_file_type',
    });
    for (const line of lines) expect(Number.isNaN(Date.parse(String(line.time)))).toBe(false);
  });
});

describe('document options reach their steps', { timeout: CLI_TIMEOUT }, () => {
  it('--chunking-strategy by_title and --max-characters make CompositeElements of that size', async () => {
    const result = await ingestCli(docs, ['--chunking-strategy', 'by_title', '--max-characters', '200']);
    expect(result.code).toBe(0);
    const chunks = await readElements(result.output, 'report.md');
    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks) {
      expect(chunk.type).toBe('CompositeElement');
      expect(chunk.text.length).toBeLessThanOrEqual(200);
    }
    expect(chunks.map((c) => c.text).join(' ')).toContain('Alice Smith');
  });

  it('--embedding-provider local adds embeddings of the local model (512 dimensions)', async () => {
    const result = await ingestCli(docs, ['--embedding-provider', 'local']);
    expect(result.code).toBe(0);
    const elements = await readElements(result.output, 'notes.txt');
    expect(elements).toHaveLength(2);
    for (const element of elements) {
      expect(element.embeddings).toHaveLength(512);
      expect(element.embeddings!.some((value) => value !== 0)).toBe(true);
    }
  });

  it('--entity-extraction local adds entities', async () => {
    const result = await ingestCli(docs, ['--entity-extraction', 'local']);
    expect(result.code).toBe(0);
    const elements = await readElements(result.output, 'report.md');
    const entities = elements.flatMap((e) => e.metadata.entities?.items ?? []).map((item) => item.entity);
    expect(entities).toEqual(expect.arrayContaining(['Alice Smith', 'Paris']));
  });

  it('--strategy reaches the partitioner (fast refuses an image)', async () => {
    const images = join(root, 'images');
    await mkdir(images, { recursive: true });
    await writeFile(join(images, 'blank.png'), makePng());
    const result = await ingestCli(images, ['--strategy', 'fast']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/FAILED {2}blank\.png: \[partition\] strategy_not_available: /);
  });

  it('--additional-partition-args applies to local partitioning, checked like the flags', async () => {
    const result = await ingestCli(docs, ['--additional-partition-args', '{"unique_element_ids": true}']);
    expect(result.code).toBe(0);
    for (const element of await readElements(result.output, 'report.md'))
      expect(element.element_id).toMatch(UUID);

    const unknown = await ingestCli(docs, ['--additional-partition-args', '{"no_such_option": 1}']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/additional_partition_args: .*no_such_option/);
    const notJson = await ingestCli(docs, ['--additional-partition-args', '{split_pdf_page}']);
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toMatch(/additional_partition_args: expected a JSON object/);
  });
});

describe('--metadata-exclude and --metadata-include', { timeout: CLI_TIMEOUT }, () => {
  const metadataKeys = (element: Element) => Object.keys(element.metadata).sort();

  it('exclude drops fields and nested paths, also inside orig_elements', async () => {
    const result = await ingestCli(docs, [
      ...['--chunking-strategy', 'by_title', '--max-characters', '200'],
      ...['--metadata-exclude', 'languages,data_source.date_processed,metadata.data_source.record_locator'],
    ]);
    expect(result.code).toBe(0);
    const chunks = await readElements(result.output, 'report.md');
    for (const chunk of chunks) {
      expect(chunk.metadata.languages).toBeUndefined();
      expect(chunk.metadata.filename).toBe('report.md');
      expect(chunk.metadata.data_source).toBeDefined();
      expect(chunk.metadata.data_source?.date_processed).toBeUndefined();
      expect(chunk.metadata.data_source?.record_locator).toBeUndefined();
      expect(chunk.metadata.data_source?.url).toBe(`file://${join(docs, 'report.md')}`);
      const originals = elementsFromBase64Gzip(chunk.metadata.orig_elements!);
      expect(originals.length).toBeGreaterThan(0);
      for (const original of originals) {
        expect(original.metadata.languages).toBeUndefined();
        expect(original.metadata.filename).toBe('report.md');
      }
    }
  });

  it('include keeps only the named fields and paths', async () => {
    const result = await ingestCli(docs, ['--metadata-include', 'filename,data_source.url']);
    expect(result.code).toBe(0);
    for (const element of await readElements(result.output, 'notes.txt')) {
      expect(metadataKeys(element)).toEqual(['data_source', 'filename']);
      expect(element.metadata.data_source).toEqual({ url: `file://${join(docs, 'notes.txt')}` });
    }
  });

  it('both together are a usage error (exit code 2), before any work', async () => {
    const result = await ingestCli(docs, [
      '--metadata-exclude',
      'languages',
      '--metadata-include',
      'filename',
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/metadata_exclude and metadata_include cannot be used together/);
    expect(await listFiles(result.output)).toEqual([]);
    expect(await listFiles(result.work)).toEqual([]);
  });

  it('date_processed is set by default (the field the nested exclusion above removes)', async () => {
    const result = await ingestCli(docs, []);
    expect(result.code).toBe(0);
    const [first] = await readElements(result.output, 'notes.txt');
    expect(Date.parse(first!.metadata.data_source!.date_processed!)).toBeGreaterThan(Date.now() - 3_600_000);
  });
});

describe('exit code 2 for usage errors', { timeout: CLI_TIMEOUT }, () => {
  it('rejects an unknown flag and a value outside the choices', async () => {
    const unknownFlag = await ingestCli(docs, ['--no-such-flag']);
    expect(unknownFlag.code).toBe(2);
    expect(unknownFlag.stderr).toMatch(/unknown option '--no-such-flag'/);
    const badChoice = await ingestCli(docs, ['--strategy', 'fastest']);
    expect(badChoice.code).toBe(2);
    expect(badChoice.stderr).toMatch(/--strategy <value>.*fastest.*is invalid/);
  });
});
