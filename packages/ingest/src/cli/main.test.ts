import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { elementsFromJson } from '@docsvc/partition';
import { beforeAll, describe, expect, it } from 'vitest';
import { hasScriptCommand, runCli, runCliInTerminal } from '../test-support/run-cli.js';

let input: string;
let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'ingest-cli-'));
  input = join(work, 'in');
  await mkdir(join(input, 'sub'), { recursive: true });
  await writeFile(
    join(input, 'a.txt'),
    'Project Overview\n\nThe new search feature is ready and the team is happy with it.\n',
  );
  await writeFile(join(input, 'sub/b.txt'), '• First item in the list\n• Second item in the list\n');
  await writeFile(join(input, 'sub/broken.bin'), Buffer.from([0, 1, 2, 3, 254, 255, 0, 9, 8, 7]));
});

describe('service-ingest local', { timeout: 240_000 }, () => {
  it('writes one JSON file per input, mirroring the input tree, and exits 1 when a file failed', async () => {
    const out = join(work, 'out1');
    const result = await runCli(['local', '--input-path', input, '--recursive', '--output-dir', out]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/sub\/broken\.bin: \[partition\] .*not supported/);
    expect(result.stderr).toMatch(/2 of 3 records processed, 0 unchanged, 1 failed/);
    const a = elementsFromJson(await readFile(join(out, 'a.txt.json'), 'utf8'));
    expect(a.map((e) => [e.type, e.text])).toEqual([
      ['Title', 'Project Overview'],
      ['NarrativeText', 'The new search feature is ready and the team is happy with it.'],
    ]);
    expect(a[1]!.metadata.parent_id).toBe(a[0]!.element_id);
    expect(a[0]!.metadata.data_source?.record_locator).toMatchObject({ protocol: 'file' });
    const b = elementsFromJson(await readFile(join(out, 'sub/b.txt.json'), 'utf8'));
    expect(b.map((e) => e.type)).toEqual(['ListItem', 'ListItem']);
    expect(await readFile(join(out, 'sub/b.txt.json'), 'utf8')).toMatch(/^\[\n {2}\{\n {4}"type"/);
  });

  it('exits 0 when every file succeeds, with a named local destination', async () => {
    const out = join(work, 'out2');
    const result = await runCli([
      'local',
      '--input-path',
      join(input, 'a.txt'),
      '--unique-element-ids',
      'local',
      '--output-dir',
      out,
    ]);
    expect(result.code).toBe(0);
    const elements = elementsFromJson(await readFile(join(out, 'a.txt.json'), 'utf8'));
    expect(elements[0]!.element_id).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  it('only descends into subdirectories with --recursive', async () => {
    const out = join(work, 'out3');
    const result = await runCli(['local', '--input-path', input, '--output-dir', out]);
    expect(result.code).toBe(0);
    await expect(readFile(join(out, 'sub/b.txt.json'))).rejects.toThrow();
  });

  // Each case is a real child process; they run side by side so a busy machine does not time the test out.
  it('exits 2 on usage and precheck errors, with a message', async () => {
    const [missingDestination, badValue, missingInput, unknownSource] = await Promise.all([
      runCli(['local', '--input-path', input]),
      runCli(['local', '--input-path', input, '--output-dir', work, '--starting-page-number', 'x']),
      runCli(['local', '--input-path', join(work, 'nope'), '--output-dir', work]),
      runCli(['nosuch']),
    ]);
    expect(missingDestination.code).toBe(2);
    expect(missingDestination.stderr).toMatch(/--output-dir/);
    expect(badValue.code).toBe(2);
    expect(badValue.stderr).toMatch(/starting_page_number: expected an integer/);
    expect(missingInput.code).toBe(2);
    expect(missingInput.stderr).toMatch(/input path does not exist/);
    expect(unknownSource.code).toBe(2);
  });

  it('prints help for the program, each source and each destination', async () => {
    const results = await Promise.all(
      [['--help'], ['local', '--help'], ['local', 'local', '--help']].map((args) => runCli(args)),
    );
    for (const result of results) {
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/Usage: service-ingest/);
    }
    expect(results[1]!.stdout).toMatch(/--input-path <path>[\s\S]*--strategy <value>/);
  });
});

describe.skipIf(!hasScriptCommand)('service-ingest at a terminal', { timeout: 240_000 }, () => {
  const localToLocal = (out: string, ...flags: string[]) =>
    runCliInTerminal(['local', '--input-path', input, '--recursive', '--output-dir', out, ...flags]);

  it('draws progress bars for the records and each step, then the failures and the summary', async () => {
    const out = join(work, 'out-tty');
    const result = await localToLocal(out);
    expect(result.code).toBe(1);
    // cli-progress's classic shades: filled and empty bar cells, one bar per step.
    expect(result.stdout).toMatch(/[\u2588\u2591]{10,} 3\/3 records/);
    for (const step of ['download', 'partition', 'upload'])
      expect(result.stdout).toMatch(new RegExp(`\\d/3 ${step}`));
    expect(result.stdout).toMatch(/FAILED {2}sub\/broken\.bin: \[partition\]/);
    expect(result.stdout).toMatch(/2 of 3 records processed, 0 unchanged, 1 failed/);
    expect(await readFile(join(out, 'a.txt.json'), 'utf8')).toMatch(/Project Overview/);
  });

  it('draws no bars with --quiet or --verbose, or with --log-format json', async () => {
    for (const flag of [['--quiet'], ['--verbose'], ['--log-format', 'json']]) {
      const result = await localToLocal(join(work, `out-tty${flag[0]}`), ...flag);
      expect(result.code).toBe(1);
      expect(result.stdout).not.toMatch(/[\u2588\u2591]{10,}/);
    }
  });
});
