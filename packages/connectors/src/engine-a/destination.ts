import { SearchEngineDestination } from '../search-engine/destination.js';
import { checkIndexName } from '../search-engine/index-name.js';
import { retryPolicy } from '../search-engine/retry.js';
import { connectEngineA } from './client.js';
import type { EngineADestinationConfig } from './config.js';
import { engineADialect } from './dialect.js';

/** engine_a destination: the shared search-engine destination over the Elasticsearch client. */
export function createEngineADestination(config: EngineADestinationConfig): SearchEngineDestination {
  // Before the client exists, so a bad name leaves nothing to close.
  checkIndexName(config.index_name);
  return new SearchEngineDestination(connectEngineA(config), engineADialect, {
    index: config.index_name,
    batchSizeBytes: config.batch_size_bytes,
    concurrency: config.num_threads,
    retry: retryPolicy(config.max_retries),
  });
}
