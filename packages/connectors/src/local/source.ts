import { opendir, readFile, realpath, stat } from 'node:fs/promises';
import { basename, dirname, relative, resolve, sep } from 'node:path';
import type { FetchedRecord, RecordDescriptor, Source } from '../contract.js';
import { ConnectorError } from '../errors.js';
import type { LocalSourceConfig } from './config.js';
import { matchesAnyGlob } from './glob.js';

/**
 * Files of a directory (optionally recursive) or one file. Records are listed in sorted path order so
 * runs are reproducible; symbolic links to directories are not followed (no loops).
 */
export class LocalSource implements Source {
  readonly type = 'local';
  readonly readsInPlace = true;
  private readonly root: string;

  constructor(private readonly config: LocalSourceConfig) {
    this.root = resolve(config.input_path);
  }

  get identity(): string {
    return this.root;
  }

  async precheck(): Promise<void> {
    try {
      await stat(this.root);
    } catch (error) {
      throw new ConnectorError('local', 'not_found', `input path does not exist: ${this.config.input_path}`, {
        cause: error,
      });
    }
  }

  async *list(signal?: AbortSignal): AsyncIterable<RecordDescriptor> {
    const info = await stat(this.root);
    if (info.isFile()) {
      yield await this.describe(this.root, basename(this.root));
      return;
    }
    for await (const path of walk(this.root, this.config.recursive, signal)) {
      const rel = relative(this.root, path).split(sep).join('/');
      if (this.config.file_glob && !matchesAnyGlob(rel, this.config.file_glob)) continue;
      yield await this.describe(path, rel);
    }
  }

  async fetch(record: RecordDescriptor): Promise<FetchedRecord> {
    const path = record.identifier;
    try {
      const data = await readFile(path);
      return {
        descriptor: record,
        data,
        filename: basename(path),
        file_directory: dirname(path),
        last_modified: record.data_source.date_modified,
      };
    } catch (error) {
      throw new ConnectorError(
        'local',
        'read',
        `cannot read ${record.display_name}: ${(error as Error).message}`,
        {
          cause: error,
        },
      );
    }
  }

  private async describe(path: string, rel: string): Promise<RecordDescriptor> {
    const info = await stat(path);
    const absolute = await realpath(path);
    return {
      identifier: absolute,
      version: `${info.mtimeMs}-${info.size}`,
      display_name: rel,
      rel_path: rel,
      data_source: {
        url: `file://${absolute}`,
        version: String(info.mtimeMs),
        record_locator: { protocol: 'file', remote_file_path: absolute },
        date_created: info.birthtime.toISOString(),
        date_modified: info.mtime.toISOString(),
        filesize_bytes: info.size,
        permissions_data: [{ mode: info.mode }],
      },
    };
  }
}

/** Files under `dir` in sorted order; subdirectories only when `recursive`. */
async function* walk(dir: string, recursive: boolean, signal?: AbortSignal): AsyncIterable<string> {
  const entries: { name: string; isDir: boolean; isFile: boolean }[] = [];
  for await (const entry of await opendir(dir)) {
    entries.push({ name: entry.name, isDir: entry.isDirectory(), isFile: entry.isFile() });
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    signal?.throwIfAborted();
    const path = resolve(dir, entry.name);
    if (entry.isFile) yield path;
    else if (entry.isDir && recursive) yield* walk(path, recursive, signal);
  }
}
