import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Element } from '@docsvc/partition';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RecordDescriptor } from '../contract.js';
import { LocalDestination } from './destination.js';
import { LocalSource } from './source.js';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'local-connector-'));
  await mkdir(join(root, 'in/sub/deeper'), { recursive: true });
  await writeFile(join(root, 'in/b.txt'), 'b');
  await writeFile(join(root, 'in/a.pdf'), 'a');
  await writeFile(join(root, 'in/sub/c.txt'), 'c');
  await writeFile(join(root, 'in/sub/deeper/d.md'), 'd');
});

async function listed(source: LocalSource): Promise<string[]> {
  const names: string[] = [];
  for await (const record of source.list()) names.push(record.rel_path);
  return names;
}

describe('LocalSource', () => {
  it('lists the top level only, sorted, unless recursive', async () => {
    expect(
      await listed(new LocalSource({ input_path: join(root, 'in'), recursive: false, file_glob: undefined })),
    ).toEqual(['a.pdf', 'b.txt']);
    expect(
      await listed(new LocalSource({ input_path: join(root, 'in'), recursive: true, file_glob: undefined })),
    ).toEqual(['a.pdf', 'b.txt', 'sub/c.txt', 'sub/deeper/d.md']);
  });

  it('filters by glob, matching base names for globs without a slash', async () => {
    const source = new LocalSource({
      input_path: join(root, 'in'),
      recursive: true,
      file_glob: ['*.txt', 'sub/deeper/*'],
    });
    expect(await listed(source)).toEqual(['b.txt', 'sub/c.txt', 'sub/deeper/d.md']);
  });

  it('treats a file input as a single record named by its base name', async () => {
    const source = new LocalSource({
      input_path: join(root, 'in/sub/c.txt'),
      recursive: false,
      file_glob: undefined,
    });
    const records: RecordDescriptor[] = [];
    for await (const record of source.list()) records.push(record);
    expect(records).toHaveLength(1);
    expect(records[0]!.rel_path).toBe('c.txt');
    const fetched = await source.fetch(records[0]!);
    expect(new TextDecoder().decode(fetched.data)).toBe('c');
    expect(records[0]!.data_source.record_locator).toEqual({
      protocol: 'file',
      remote_file_path: join(root, 'in/sub/c.txt'),
    });
  });

  it('fails its precheck for a missing path with a not_found stage', async () => {
    const source = new LocalSource({
      input_path: join(root, 'missing'),
      recursive: false,
      file_glob: undefined,
    });
    await expect(source.precheck()).rejects.toMatchObject({ stage: 'not_found' });
  });
});

describe('LocalDestination', () => {
  const element: Element = { type: 'Title', element_id: 'x', text: 'Hello', metadata: {} };
  const record = { rel_path: 'sub/c.txt' } as RecordDescriptor;

  it('writes <rel_path>.json as an indented JSON array', async () => {
    const destination = new LocalDestination({ output_dir: join(root, 'out') });
    await destination.precheck();
    await destination.upload(destination.stage([element], record));
    const written = await readFile(join(root, 'out/sub/c.txt.json'), 'utf8');
    expect(written).toBe(
      `[\n  {\n    "type": "Title",\n    "element_id": "x",\n    "text": "Hello",\n    "metadata": {}\n  }\n]\n`,
    );
  });

  it('keeps the previous file intact and leaves no temporary file when a write fails', async () => {
    const destination = new LocalDestination({ output_dir: join(root, 'out') });
    await destination.upload(destination.stage([element], record));
    const before = await readFile(join(root, 'out/sub/c.txt.json'), 'utf8');
    const unserialisable: Element = { ...element, metadata: { size: 1n } };
    await expect(destination.upload(destination.stage([unserialisable], record))).rejects.toMatchObject({
      stage: 'write',
    });
    expect(await readFile(join(root, 'out/sub/c.txt.json'), 'utf8')).toBe(before);
    expect((await readdir(join(root, 'out/sub'))).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('takes over the temporary file a killed run left behind, so the rewrite leaves none', async () => {
    const destination = new LocalDestination({ output_dir: join(root, 'out') });
    await mkdir(join(root, 'out/sub'), { recursive: true });
    await writeFile(join(root, 'out/sub/c.txt.json.tmp'), '[{"type": "Title", "te');
    await destination.upload(destination.stage([element], record));
    expect((await readdir(join(root, 'out/sub'))).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    expect(JSON.parse(await readFile(join(root, 'out/sub/c.txt.json'), 'utf8'))).toHaveLength(1);
  });
});
