import type { EngineRequestOptions, EngineTransport } from './transport.js';

/**
 * Where engine_a (Elasticsearch-compatible) and engine_b (OpenSearch-compatible) differ for the shared
 * code: the vector field and index settings of SPEC 2.7, and the point-in-time API (paths, response
 * field, sort). Everything else is one REST API.
 */
export interface SearchEngineDialect {
  readonly connector: 'engine_a' | 'engine_b';
  /** Human description for messages and docs. */
  readonly product: string;
  /** `mappings.properties.embeddings` of an auto-created index. */
  vectorProperty(dimension: number): Record<string, unknown>;
  /** `settings` of an auto-created index (undefined: the engine's defaults). */
  indexSettings(): Record<string, unknown> | undefined;
  /** Opens a point in time on the index and returns its id. */
  openPointInTime(
    transport: EngineTransport,
    index: string,
    keepAlive: string,
    options?: EngineRequestOptions,
  ): Promise<string>;
  closePointInTime(transport: EngineTransport, id: string): Promise<void>;
  /**
   * The sort of a point-in-time scan: a total order, so `search_after` neither skips nor repeats a
   * document. `shards` is the index's primary shard count when known.
   */
  pointInTimeSort(shards: number | undefined): unknown[];
}
