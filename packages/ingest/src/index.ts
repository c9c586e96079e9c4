/**
 * @docsvc/ingest: the batch pipeline (`ingest()`) behind the `service-ingest` command.
 */
export * from './options.js';
export * from './pipeline/events.js';
export {
  type ConnectorConfig,
  type IngestOptions,
  IngestSetupError,
  ingest,
  RecordFailedError,
} from './pipeline/ingest.js';
