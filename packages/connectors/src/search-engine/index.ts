/**
 * Code shared by engine_a and engine_b: one REST dialect apart (dialect.ts), they index, scan, check and
 * update records the same way.
 */
export { type BulkFailure, type BulkOperation, type BulkOutcome, runBulk } from './bulk.js';
export { type ConnectorRole, checkSearchEngine } from './check.js';
export { isRetryable, reasonOf, statusOf, toConnectorError } from './classify.js';
export {
  SEARCH_ENGINE_JOINER,
  SearchEngineDestination,
  type SearchEngineDestinationSettings,
  type SearchEngineRow,
} from './destination.js';
export type { SearchEngineDialect } from './dialect.js';
export { documentText } from './document-text.js';
export { parseHost, parseHosts } from './hosts.js';
export { checkIndexName } from './index-name.js';
export { type IndexLayout, readIndexLayout, specProperties } from './mapping.js';
export { parseConnectorOptions } from './options.js';
export { existingRecordDocumentIds } from './record-sync.js';
export { backoffDelay, type RetryPolicy, retryPolicy, withRetries } from './retry.js';
export { type ScanOptions, type SearchHit, scanIndex } from './scan.js';
export { outputName, SearchEngineSource, type SearchEngineSourceSettings } from './source.js';
export type { EngineRequest, EngineRequestOptions, EngineResponse, EngineTransport } from './transport.js';
