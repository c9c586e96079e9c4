import { checkIndexName } from '../search-engine/index-name.js';
import { retryPolicy } from '../search-engine/retry.js';
import { SearchEngineSource } from '../search-engine/source.js';
import { connectEngineA, engineAHosts } from './client.js';
import type { EngineASourceConfig } from './config.js';
import { engineADialect } from './dialect.js';

/** engine_a source: the shared search-engine source over the Elasticsearch client. */
export function createEngineASource(config: EngineASourceConfig): SearchEngineSource {
  // Before the client exists, so a bad name leaves nothing to close.
  checkIndexName(config.index_name);
  const hosts = engineAHosts(config);
  return new SearchEngineSource(connectEngineA(config), engineADialect, {
    index: config.index_name,
    fields: config.fields,
    pageSize: config.batch_size,
    retry: retryPolicy(config.max_retries),
    hosts,
    baseUrl: hosts[0]!,
  });
}
