import { createHash } from 'node:crypto';
import type { Element } from '@docsvc/partition';
import type { Destination, RecordDescriptor, StagedRecord, UploadResult } from '../contract.js';
import { ConnectorError } from '../errors.js';
import { type ElementRow, embeddingDimension, type KeyedRow, stageElementRows } from '../staging/index.js';
import { type BulkFailure, type BulkOperation, runBulk } from './bulk.js';
import { toConnectorError } from './classify.js';
import type { SearchEngineDialect } from './dialect.js';
import { checkIndexName } from './index-name.js';
import { type IndexLayout, readIndexLayout, specProperties } from './mapping.js';
import { existingRecordDocumentIds } from './record-sync.js';
import { type RetryPolicy, withRetries } from './retry.js';
import { Semaphore } from './semaphore.js';
import { type EngineTransport, indexPath } from './transport.js';

/** SPEC 2.7: engine_a and engine_b join nested metadata keys with a hyphen. */
export const SEARCH_ENGINE_JOINER = '-';

export type SearchEngineRow = KeyedRow<ElementRow>;

export interface SearchEngineDestinationSettings {
  index: string;
  /** Upper bound of one `_bulk` request body. */
  batchSizeBytes: number;
  /** `_bulk` requests in flight at once, over all records. */
  concurrency: number;
  retry: RetryPolicy;
}

/**
 * engine_a/engine_b destination, one document per element (SPEC 2.7) with `_id` = record key.
 *
 * Record updates, without a loss window and without orphans: the record's new documents are written
 * first (their ids are deterministic, so unchanged elements are overwritten in place); only when all of
 * them are in, the record's documents that the new version no longer has are looked up and deleted. A run
 * stopped half-way leaves the old version complete (plus some new documents); the next run completes the
 * new one and removes the rest. A missing index is created with the SPEC 2.7 mapping on the first upload,
 * with the vector dimension of the data.
 */
export class SearchEngineDestination implements Destination<SearchEngineRow> {
  readonly type: string;
  private layout: IndexLayout | undefined;
  private indexExists: boolean | undefined;
  private creating: Promise<void> | undefined;
  private firstRefresh: Promise<void> | undefined;
  /** Hashes of the records this destination has written, whose writes a search may not see yet. */
  private readonly written = new Set<string>();
  private readonly semaphore: Semaphore;

  constructor(
    private readonly transport: EngineTransport,
    private readonly dialect: SearchEngineDialect,
    private readonly settings: SearchEngineDestinationSettings,
  ) {
    checkIndexName(settings.index);
    this.type = dialect.connector;
    this.semaphore = new Semaphore(settings.concurrency);
  }

  private get index(): string {
    return this.settings.index;
  }

  private failure(error: unknown, action: string, stage: 'read' | 'write' | 'schema' = 'write') {
    return toConnectorError(error, {
      connector: this.type,
      host: this.transport.hosts[0] ?? '(no host)',
      index: this.index,
      action,
      stage,
    });
  }

  /** Reaches the engine with the credentials and reads the index layout; a missing index is fine. */
  async precheck(): Promise<void> {
    await this.readLayout(undefined);
  }

  private async readLayout(signal: AbortSignal | undefined): Promise<void> {
    try {
      const { statusCode, body } = await this.transport.request(
        { method: 'GET', path: indexPath(this.index) },
        { ignore: [404], signal },
      );
      this.indexExists = statusCode !== 404;
      this.layout = this.indexExists ? readIndexLayout(body) : undefined;
    } catch (error) {
      throw this.failure(error, `reading index "${this.index}"`, 'read');
    }
  }

  stage(elements: Element[], record: RecordDescriptor): StagedRecord<SearchEngineRow> {
    return { record, rows: stageElementRows(elements, record.identifier, { joiner: SEARCH_ENGINE_JOINER }) };
  }

  /** Creates the index with the SPEC 2.7 mapping unless it exists (SPEC 4.5: PUT <host>/<index>). */
  async createTarget(options: { dimension?: number } = {}): Promise<void> {
    if (this.indexExists === undefined) await this.readLayout(undefined);
    if (this.indexExists) return;
    this.creating ??= this.createIndex(options.dimension).catch((error: unknown) => {
      this.creating = undefined;
      throw error;
    });
    await this.creating;
  }

  private async createIndex(dimension: number | undefined): Promise<void> {
    const properties = specProperties();
    if (dimension !== undefined) properties.embeddings = this.dialect.vectorProperty(dimension);
    const settings = this.dialect.indexSettings();
    const body = { ...(settings ? { settings } : {}), mappings: { properties } };
    try {
      const { statusCode, body: answer } = await withRetries(
        () => this.transport.request({ method: 'PUT', path: indexPath(this.index), body }, { ignore: [400] }),
        this.settings.retry,
      );
      // Another writer may have created it between our check and our request: that index is used.
      if (statusCode === 400 && !/resource_already_exists/.test(JSON.stringify(answer))) {
        throw Object.assign(new Error('index creation refused'), { meta: { statusCode, body: answer } });
      }
    } catch (error) {
      throw this.failure(error, `creating index "${this.index}"`, 'schema');
    }
    await this.readLayout(undefined);
  }

  async upload(staged: StagedRecord<SearchEngineRow>, signal?: AbortSignal): Promise<UploadResult> {
    const { record, rows } = staged;
    const dimension = embeddingDimension(
      rows.map((keyed) => keyed.row),
      this.type,
    );
    if (this.indexExists === undefined) await this.readLayout(signal);
    if (!this.indexExists) {
      // Nothing to write and no index: no old version can exist either.
      if (rows.length === 0) return { written: 0, deleted: 0 };
      await this.createTarget(dimension === undefined ? {} : { dimension });
    }
    this.checkDimension(dimension, record);

    // Marked before writing: even a failed attempt may have written documents a later lookup must see.
    const hash = recordHash(record.identifier);
    const writtenBefore = this.written.has(hash);
    this.written.add(hash);
    // The lookup of the record's documents runs while the new ones are written: it only needs to see what
    // earlier uploads wrote (new documents are recognised by their ids), and so costs no extra round trip.
    // Nothing is deleted unless every new document was written.
    const earlier = this.findEarlierDocuments(record, writtenBefore, signal);
    earlier.catch(() => undefined);
    const written = await this.write(
      rows.map(
        (keyed): BulkOperation => ({
          action: 'index',
          id: keyed.key,
          document: keyed.row,
          label: keyed.row.element_id,
        }),
      ),
      record,
      'written',
      signal,
    );
    const keep = new Set(rows.map((keyed) => keyed.key));
    const older = (await earlier).filter((id) => !keep.has(id));
    const deleted =
      older.length === 0
        ? 0
        : await this.write(
            older.map(
              (id): BulkOperation => ({ action: 'delete', id, label: `(earlier element, _id ${id})` }),
            ),
            record,
            'deleted',
            signal,
          );
    return { written, deleted };
  }

  private checkDimension(dimension: number | undefined, record: RecordDescriptor): void {
    const expected = this.layout?.dimension;
    if (dimension === undefined || expected === undefined || dimension === expected) return;
    throw new ConnectorError(
      this.type,
      'schema',
      `${this.type}: index "${this.index}" maps embeddings with ${expected} dimensions but the elements of ` +
        `${record.display_name} have ${dimension}; use an embedding model of ${expected} dimensions or another index`,
    );
  }

  private async findEarlierDocuments(
    record: RecordDescriptor,
    writtenBefore: boolean,
    signal: AbortSignal | undefined,
  ): Promise<string[]> {
    try {
      await this.makeEarlierWritesVisible(writtenBefore);
      return await existingRecordDocumentIds(this.transport, this.dialect, {
        index: this.index,
        recordId: record.identifier,
        layout: this.layout,
        retry: this.settings.retry,
        signal,
      });
    } catch (error) {
      throw this.failure(error, `looking up the earlier elements of ${record.display_name}`, 'read');
    }
  }

  /**
   * A search sees only what the engine has refreshed (about once a second). The first lookup of a run
   * refreshes the index once, so everything earlier runs wrote is seen; a record this destination has
   * itself written before (a test, a library caller re-uploading) refreshes again. Without the privilege
   * to refresh, the engine's periodic refresh is relied on.
   */
  private async makeEarlierWritesVisible(writtenBefore: boolean): Promise<void> {
    this.firstRefresh ??= this.refresh();
    await this.firstRefresh;
    if (writtenBefore) await this.refresh();
  }

  private async refresh(): Promise<void> {
    await this.transport
      .request({ method: 'POST', path: indexPath(this.index, '_refresh') })
      .then(() => undefined)
      .catch(() => undefined);
  }

  private async write(
    operations: BulkOperation[],
    record: RecordDescriptor,
    what: 'written' | 'deleted',
    signal: AbortSignal | undefined,
  ): Promise<number> {
    let outcome: Awaited<ReturnType<typeof runBulk>>;
    try {
      outcome = await runBulk(this.transport, operations, {
        index: this.index,
        maxBytes: this.settings.batchSizeBytes,
        semaphore: this.semaphore,
        retry: this.settings.retry,
        signal,
      });
    } catch (error) {
      throw this.failure(error, `writing ${record.display_name} to index "${this.index}"`);
    }
    if (outcome.failures.length > 0) {
      throw new ConnectorError(
        this.type,
        'write',
        `${this.type}: ${outcome.failures.length} of ${operations.length} elements of ${record.display_name} ` +
          `could not be ${what} in index "${this.index}": ${describeFailures(outcome.failures)}` +
          (what === 'written' ? '; the earlier version of the record was left in place' : ''),
      );
    }
    return outcome.succeeded;
  }

  async close(): Promise<void> {
    await this.transport.close();
  }
}

function describeFailures(failures: BulkFailure[]): string {
  const shown = failures
    .slice(0, 5)
    .map((failure) => `element ${failure.label} (${failure.status} ${failure.reason})`)
    .join('; ');
  return failures.length > 5 ? `${shown}; and ${failures.length - 5} more` : shown;
}

function recordHash(identifier: string): string {
  return createHash('sha256').update(identifier).digest('base64url').slice(0, 16);
}
