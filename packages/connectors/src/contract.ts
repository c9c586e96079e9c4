import type { AnyOptionSet, DataSource, Element } from '@docsvc/partition';

/**
 * The connector contract. A Source enumerates records and fetches each one's bytes; a Destination
 * stages a record's elements into its own row shape and uploads them. The pipeline (in @docsvc/ingest)
 * only talks to these interfaces, so every connector plugs in the same way.
 */

/** One record of a source, as listed (cheap: no content yet). */
export interface RecordDescriptor {
  /** Stable, unique id of the record within the source (a path, `index/_id`...). Used as record_id. */
  identifier: string;
  /** Changes whenever the record's content changes (mtime+size, document _version...). */
  version: string;
  /** Human-readable name for logs and progress. */
  display_name: string;
  /** Path relative to the source root, used to name output files (e.g. `sub/b.txt`). */
  rel_path: string;
  /** Where the record comes from; copied into each element's metadata.data_source. */
  data_source: DataSource;
}

/** A fetched record: its bytes plus what partitioning needs to know about them. */
export interface FetchedRecord {
  descriptor: RecordDescriptor;
  data: Uint8Array;
  filename: string;
  file_directory?: string | undefined;
  content_type?: string | undefined;
  last_modified?: string | undefined;
}

export interface Source {
  readonly type: string;
  /**
   * What identifies this source's data across runs, when its configuration alone does not (a relative
   * path means different folders from different working directories). Used in work-dir keys.
   */
  readonly identity?: string;
  /** True when fetching is a cheap local read (no point keeping a downloaded copy in the work dir). */
  readonly readsInPlace?: boolean;
  /** Fail fast, before any work, with a precise ConnectorError (missing path, index, credentials...). */
  precheck(): Promise<void>;
  list(signal?: AbortSignal): AsyncIterable<RecordDescriptor>;
  fetch(record: RecordDescriptor, signal?: AbortSignal): Promise<FetchedRecord>;
  close?(): Promise<void>;
}

/** What a destination will write for one record, in its own shape. */
export interface StagedRecord<Row = unknown> {
  record: RecordDescriptor;
  rows: Row[];
}

export interface UploadResult {
  /** Rows written. */
  written: number;
  /** Older rows of the same record removed because they are no longer produced. */
  deleted: number;
}

export interface Destination<Row = unknown> {
  readonly type: string;
  /** As Source.identity: what identifies the written data across runs (e.g. an absolute folder). */
  readonly identity?: string;
  /**
   * Fail fast, before any work. `expected.dimension` is the embedding size the run will produce, when
   * known, so a destination with a fixed vector size can refuse a mismatch up front.
   */
  precheck(expected?: { dimension?: number }): Promise<void>;
  stage(elements: Element[], record: RecordDescriptor): StagedRecord<Row>;
  /**
   * Write a record's rows so that the target holds either the old complete version or the new complete
   * version of the record, never neither; re-running converges.
   */
  upload(staged: StagedRecord<Row>, signal?: AbortSignal): Promise<UploadResult>;
  /**
   * Whether the destination still holds what was last uploaded for this record (cheap checks only, e.g. a
   * file exists). When it says no, a record the ledger calls unchanged is written again.
   */
  holds?(record: RecordDescriptor): Promise<boolean>;
  /** Create the index/collection when the system allows it (dimension = embedding size, if any). */
  createTarget?(options: { dimension?: number }): Promise<void>;
  close?(): Promise<void>;
}

/** Result of "Save and Test": which stage failed and why, for users to act on. */
export interface ConnectionCheck {
  ok: boolean;
  /** dns | connect | tls | auth | permission | not_found | config | unknown */
  stage?: string;
  message: string;
}

/** Registry entry for one connector type: its config schemas and factories. */
export interface ConnectorDefinition {
  type: string;
  description: string;
  sourceOptions?: AnyOptionSet;
  destinationOptions?: AnyOptionSet;
  createSource?(config: Record<string, unknown>): Source;
  createDestination?(config: Record<string, unknown>): Destination;
  checkConnection?(config: Record<string, unknown>, role: 'source' | 'destination'): Promise<ConnectionCheck>;
}
