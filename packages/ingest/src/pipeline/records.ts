import type { RecordDescriptor } from '@docsvc/connectors';
import type { RecordStatus } from './events.js';
import { stableHash, type WorkDir } from './work-dir.js';

/** What the ledger remembers about a record's last successful upload to a destination. */
export interface LedgerEntry {
  identifier: string;
  version: string;
  /** Hash of every step's configuration (without secrets) when it was uploaded. */
  config: string;
  elements: number;
  uploaded_at: string;
}

/** Per source → destination pair: which version of each record was uploaded with which configuration. */
export class Ledger {
  constructor(
    private readonly workDir: WorkDir,
    private readonly pair: string,
  ) {}

  private path(record: RecordDescriptor): string {
    return this.workDir.path('ledgers', this.pair, `${stableHash(record.identifier).slice(0, 40)}.json`);
  }

  read(record: RecordDescriptor): Promise<LedgerEntry | undefined> {
    return this.workDir.readJson<LedgerEntry>(this.path(record));
  }

  write(record: RecordDescriptor, config: string, elements: number): Promise<void> {
    const entry: LedgerEntry = {
      identifier: record.identifier,
      version: record.version,
      config,
      elements,
      uploaded_at: new Date().toISOString(),
    };
    return this.workDir.writeJson(this.path(record), entry);
  }
}

/**
 * Decide whether a record needs work, and say why (shown by --dry-run and --verbose). `reprocess` and
 * `re_download` both send every record through the pipeline again: re-downloading an unchanged record and
 * then skipping it would make the flag do nothing.
 */
export function classifyRecord(
  record: RecordDescriptor,
  entry: LedgerEntry | undefined,
  config: string,
  force: { reprocess: boolean; re_download: boolean },
): { status: RecordStatus; reason: string } {
  if (!entry) return { status: 'new', reason: 'not uploaded to this destination before' };
  // The record's own change first: it is the reason that holds without any flag.
  if (entry.version !== record.version) {
    return { status: 'changed', reason: `source version changed (${entry.version} → ${record.version})` };
  }
  if (entry.config !== config)
    return { status: 'changed', reason: 'processing or destination configuration changed' };
  if (force.reprocess) return { status: 'changed', reason: 'reprocess requested' };
  if (force.re_download) return { status: 'changed', reason: 're-download requested' };
  return { status: 'unchanged', reason: `uploaded ${entry.uploaded_at}, same version and configuration` };
}
