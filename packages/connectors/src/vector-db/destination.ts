import type { Element } from '@docsvc/partition';
import type { MilvusClient } from '@zilliz/milvus2-sdk-node';
import type { Destination, RecordDescriptor, UploadResult } from '../contract.js';
import { ConnectorError } from '../errors.js';
import { CONNECTOR, connected, createVectorDbClient } from './client.js';
import type { VectorDbConfig } from './config.js';
import { type CollectionLayout, ensureLoaded, readLayout, reviewLayout } from './layout.js';
import { type CreateCollectionOptions, type CreateCollectionResult, createSpecCollection } from './schema.js';
import { WriteSlots } from './slots.js';
import { stageRecord, type VectorDbRow, type VectorDbStaged } from './stage.js';
import { batchRows, deleteWhere, MAX_KEYS_PER_FILTER, orphanFilters, upsertRows } from './write.js';

export interface VectorDbDestinationRuntime {
  /** Where warnings go (values cut, elements left out); default: process.emitWarning. */
  onWarning?: (message: string) => void;
  /** Keys per delete expression (tests use a small number to cover the ranged deletes). */
  keysPerFilter?: number;
  /** Upsert through the SDK's generic row conversion (slower; tests compare both ways). */
  viaSdk?: boolean;
}

/**
 * The vector_db destination (SPEC 2.4, 2.7): precheck reads the collection schema; stage converts and
 * checks every value against it; upload upserts a record's rows, then deletes its rows that are no longer
 * produced. Write requests of all records share `max_concurrent_writes` slots.
 */
export class VectorDbDestination implements Destination<VectorDbRow> {
  readonly type = CONNECTOR;
  private readonly client: MilvusClient;
  private readonly writes: WriteSlots;
  private readonly warn: (message: string) => void;
  private readonly keysPerFilter: number;
  private readonly viaSdk: boolean;
  private layout: CollectionLayout | undefined;

  constructor(
    readonly config: VectorDbConfig,
    runtime: VectorDbDestinationRuntime = {},
  ) {
    this.client = createVectorDbClient(config);
    this.writes = new WriteSlots(config.max_concurrent_writes);
    this.warn =
      runtime.onWarning ??
      ((message) => process.emitWarning(`vector_db: ${message}`, { code: 'DOCSVC_VECTOR_DB' }));
    this.keysPerFilter = runtime.keysPerFilter ?? MAX_KEYS_PER_FILTER;
    this.viaSdk = runtime.viaSdk === true;
  }

  /**
   * Before any write: the server answers, the database and collection exist, the schema has what the
   * destination writes (element_id VARCHAR primary key, embeddings FLOAT_VECTOR of `expected.dimension`
   * when given, record_id and text VARCHARs), and the collection is loaded.
   */
  async precheck(expected: { dimension?: number } = {}): Promise<void> {
    const { collection_name: collection, db_name: database } = this.config;
    await connected(this.client, this.config.uri);
    const layout = await readLayout(this.client, collection, database);
    const { problems, requiredOptional } = reviewLayout(layout, expected.dimension);
    if (problems.length > 0) {
      throw new ConnectorError(
        CONNECTOR,
        'schema',
        `collection "${collection}" cannot take elements: ${problems.join('; ')}`,
      );
    }
    await ensureLoaded(this.client, collection);
    if (requiredOptional.length > 0) {
      this.warn(
        `collection "${collection}": ${requiredOptional.join(', ')} ${requiredOptional.length === 1 ? 'is' : 'are'} not nullable; a record whose elements lack ${requiredOptional.length === 1 ? 'it' : 'one'} will fail`,
      );
    }
    this.layout = layout;
  }

  /** The collection layout read by precheck. */
  get collectionLayout(): CollectionLayout | undefined {
    return this.layout;
  }

  stage(elements: Element[], record: RecordDescriptor): VectorDbStaged {
    if (!this.layout) {
      throw new ConnectorError(
        CONNECTOR,
        'config',
        'precheck() must run before stage(): it reads the schema',
      );
    }
    return stageRecord(elements, record, this.layout, this.config.varchar_overflow);
  }

  async upload(staged: VectorDbStaged, signal?: AbortSignal): Promise<UploadResult> {
    const collection = this.config.collection_name;
    if (!this.layout) {
      throw new ConnectorError(
        CONNECTOR,
        'config',
        'precheck() must run before upload(): it reads the schema',
      );
    }
    for (const warning of staged.warnings ?? [])
      this.warn(`record "${staged.record.display_name}": ${warning}`);
    const target = {
      client: this.client,
      connection: this.config,
      collection,
      layout: this.layout,
      viaSdk: this.viaSdk,
    };
    for (const batch of batchRows(staged.rows, this.config.batch_size)) {
      signal?.throwIfAborted();
      await this.writes.run(() => upsertRows(target, batch));
    }
    const keep = staged.rows.map((row) => row.element_id);
    let deleted = 0;
    for (const filter of orphanFilters(staged.record.identifier, keep, this.keysPerFilter)) {
      signal?.throwIfAborted();
      deleted += await this.writes.run(() => deleteWhere(this.client, collection, filter));
    }
    return { written: staged.rows.length, deleted };
  }

  /** The contract's createTarget: the SPEC 2.7 collection with `dimension` (see createCollection). */
  async createTarget(options: {
    dimension?: number;
    extended?: boolean;
    dynamic_fields?: boolean;
  }): Promise<void> {
    await this.createCollection(options);
  }

  /**
   * Create the SPEC 2.7 collection (see schema.ts) or check the existing one; `dimension` is required (the
   * embedding model's), `extended` adds every optional metadata field of SPEC 2.7.
   */
  async createCollection(
    options: { dimension?: number } & Partial<Omit<CreateCollectionOptions, 'collection_name'>>,
  ): Promise<CreateCollectionResult> {
    if (options.dimension === undefined) {
      throw new ConnectorError(CONNECTOR, 'config', 'a collection needs a dimension (the embedding size)');
    }
    await connected(this.client, this.config.uri);
    return createSpecCollection(this.client, this.config.db_name, {
      ...options,
      dimension: options.dimension,
      collection_name: this.config.collection_name,
    });
  }

  async close(): Promise<void> {
    await this.client.closeConnection().catch(() => {});
  }
}
