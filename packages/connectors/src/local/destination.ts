import { access, mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { type Element, elementsToJson } from '@docsvc/partition';
import type { Destination, RecordDescriptor, StagedRecord, UploadResult } from '../contract.js';
import { ConnectorError } from '../errors.js';
import type { LocalDestinationConfig } from './config.js';

/**
 * Writes `<output_dir>/<rel_path>.json` (a 2-space-indented JSON array) per record. Each file is written to
 * a temporary name and renamed into place, so a failed or interrupted write never leaves a truncated file
 * and never removes the previous version.
 */
export class LocalDestination implements Destination<Element> {
  readonly type = 'local';
  private readonly root: string;

  constructor(config: LocalDestinationConfig) {
    this.root = resolve(config.output_dir);
  }

  get identity(): string {
    return this.root;
  }

  async precheck(): Promise<void> {
    try {
      await mkdir(this.root, { recursive: true });
      const info = await stat(this.root);
      if (!info.isDirectory()) throw new Error('not a directory');
    } catch (error) {
      throw new ConnectorError(
        'local',
        'config',
        `cannot use output directory ${this.root}: ${(error as Error).message}`,
        {
          cause: error,
        },
      );
    }
  }

  stage(elements: Element[], record: RecordDescriptor): StagedRecord<Element> {
    return { record, rows: elements };
  }

  /** The output file of a record. */
  outputPath(record: RecordDescriptor): string {
    return join(this.root, `${record.rel_path}.json`);
  }

  async holds(record: RecordDescriptor): Promise<boolean> {
    return access(this.outputPath(record)).then(
      () => true,
      () => false,
    );
  }

  async upload(staged: StagedRecord<Element>): Promise<UploadResult> {
    const target = this.outputPath(staged.record);
    // A fixed name per target (one run writes each record once): if a run is killed mid-write, the
    // rerun that rewrites the record reuses and renames the same file, so no stray copy stays behind.
    const temporary = `${target}.tmp`;
    try {
      await mkdir(dirname(target), { recursive: true });
      await writeFile(temporary, `${elementsToJson(staged.rows, 2)}\n`);
      await rename(temporary, target);
    } catch (error) {
      await rm(temporary, { force: true });
      throw new ConnectorError('local', 'write', `cannot write ${target}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    return { written: staged.rows.length, deleted: 0 };
  }
}
