import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { registerConnector } from '@docsvc/connectors';
import { elementsFromJson } from '@docsvc/partition';
import { beforeAll, describe, expect, it } from 'vitest';
import type { IngestEvent } from './events.js';
import { IngestSetupError, ingest, RecordFailedError } from './ingest.js';

let input: string;
let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'ingest-lib-'));
  input = join(work, 'in');
  await mkdir(input, { recursive: true });
  for (let i = 0; i < 12; i++)
    await writeFile(
      join(input, `doc-${String(i).padStart(2, '0')}.txt`),
      `Document number ${i} has some text in it.`,
    );
  // A WAV header: recognised, and refused by name as an unsupported type.
  const wav = Buffer.alloc(44);
  wav.write('RIFF', 0);
  wav.writeUInt32LE(36, 4);
  wav.write('WAVEfmt ', 8);
  await writeFile(join(input, 'doc-05.wav'), wav);
});

describe('ingest()', () => {
  it('processes every record, reports the failing one with its step and reason, and keeps going', async () => {
    const events: IngestEvent[] = [];
    const out = join(work, 'out');
    const summary = await ingest({
      source: { type: 'local', input_path: input },
      output_dir: out,
      num_processes: 3,
      onEvent: (e) => events.push(e),
    });
    expect(summary.total).toBe(13);
    expect(summary.succeeded).toBe(12);
    expect(summary.failed).toEqual([
      expect.objectContaining({ record: 'doc-05.wav', step: 'partition', code: 'unsupported_file_type' }),
    ]);
    expect(events.filter((e) => e.type === 'done')).toHaveLength(12);
    const elements = elementsFromJson(await readFile(join(out, 'doc-11.txt.json'), 'utf8'));
    expect(elements[0]!.text).toBe('Document number 11 has some text in it.');
  });

  it('skips unchanged records on a second run, but rewrites an output that was deleted', async () => {
    const out = join(work, 'out-again');
    const options = {
      source: { type: 'local', input_path: input },
      output_dir: out,
      work_dir: join(work, 'wd-again'),
      num_processes: 1,
    };
    await ingest(options);
    const second = await ingest(options);
    expect(second.skipped).toBe(12);
    expect(second.succeeded).toBe(0);
    await rm(join(out, 'doc-03.txt.json'));
    const third = await ingest(options);
    expect(third.succeeded).toBe(1);
    expect(third.steps.partition.cached).toBe(1);
    expect(JSON.parse(await readFile(join(out, 'doc-03.txt.json'), 'utf8'))).toHaveLength(1);
  });

  it('tells the destination the embedding size at precheck, before any work', async () => {
    const prechecks: ({ dimension?: number } | undefined)[] = [];
    registerConnector({
      type: 'precheck-recorder',
      description: 'a destination that records its precheck and refuses the run',
      createDestination: () => ({
        type: 'precheck-recorder',
        async precheck(expected) {
          prechecks.push(expected);
          throw new Error(`collection expects 384 dimensions, the run produces ${expected?.dimension}`);
        },
        stage: (elements, record) => ({ record, rows: elements }),
        upload: async () => ({ written: 0, deleted: 0 }),
      }),
    });
    await expect(
      ingest({
        source: { type: 'local', input_path: input },
        destination: { type: 'precheck-recorder' },
        work_dir: join(work, 'wd-precheck'),
        embedding_provider: 'local',
      }),
    ).rejects.toThrow(/precheck failed: collection expects 384 dimensions, the run produces 512/);
    expect(prechecks).toEqual([{ dimension: 512 }]);
  });

  it('passes partition options through under their own names', async () => {
    const out = join(work, 'out-options');
    await ingest({
      source: { type: 'local', input_path: join(input, 'doc-01.txt') },
      output_dir: out,
      languages: ['fr'],
    });
    const elements = elementsFromJson(await readFile(join(out, 'doc-01.txt.json'), 'utf8'));
    expect(elements[0]!.metadata.languages).toEqual(['fra']);
  });

  it('stops at the first failure with raise_on_error', async () => {
    await expect(
      ingest({
        source: { type: 'local', input_path: input },
        output_dir: join(work, 'out-raise'),
        raise_on_error: true,
        num_processes: 1,
      }),
    ).rejects.toBeInstanceOf(RecordFailedError);
  });

  it('rejects unknown options, unknown connectors and failing prechecks before any work', async () => {
    await expect(
      ingest({
        source: { type: 'local', input_path: input },
        output_dir: work,
        ...({ stratgy: 'fast' } as object),
      }),
    ).rejects.toThrow(/Unknown option: stratgy/);
    await expect(ingest({ source: { type: 'nosuch' }, output_dir: work })).rejects.toBeInstanceOf(
      IngestSetupError,
    );
    await expect(
      ingest({ source: { type: 'local', input_path: join(work, 'missing') }, output_dir: work }),
    ).rejects.toThrow(/precheck failed/);
    await expect(ingest({ source: { type: 'local', input_path: input } })).rejects.toThrow(/no destination/);
  });
});
