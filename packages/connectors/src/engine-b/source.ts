import { checkIndexName } from '../search-engine/index-name.js';
import { retryPolicy } from '../search-engine/retry.js';
import { SearchEngineSource } from '../search-engine/source.js';
import { connectEngineB, engineBHosts } from './client.js';
import type { EngineBSourceConfig } from './config.js';
import { engineBDialect } from './dialect.js';

/** engine_b source: the shared search-engine source over the OpenSearch client. */
export function createEngineBSource(config: EngineBSourceConfig): SearchEngineSource {
  // Before the client exists, so a bad name leaves nothing to close.
  checkIndexName(config.index_name);
  const hosts = engineBHosts(config);
  return new SearchEngineSource(connectEngineB(config), engineBDialect(), {
    index: config.index_name,
    fields: config.fields,
    pageSize: config.batch_size,
    retry: retryPolicy(config.max_retries),
    hosts,
    baseUrl: hosts[0]!,
  });
}
