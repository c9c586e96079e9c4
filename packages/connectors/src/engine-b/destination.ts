import { SearchEngineDestination } from '../search-engine/destination.js';
import { checkIndexName } from '../search-engine/index-name.js';
import { retryPolicy } from '../search-engine/retry.js';
import { connectEngineB } from './client.js';
import type { EngineBDestinationConfig } from './config.js';
import { engineBDialect } from './dialect.js';

/** engine_b destination: the shared search-engine destination over the OpenSearch client. */
export function createEngineBDestination(config: EngineBDestinationConfig): SearchEngineDestination {
  // Before the client exists, so a bad name leaves nothing to close.
  checkIndexName(config.index_name);
  return new SearchEngineDestination(connectEngineB(config), engineBDialect(config.knn_engine), {
    index: config.index_name,
    batchSizeBytes: config.batch_size_bytes,
    concurrency: config.num_threads,
    retry: retryPolicy(config.max_retries),
  });
}
