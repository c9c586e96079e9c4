/**
 * @docsvc/ingest: the batch pipeline (`ingest()`) behind the `service-ingest` command.
 */
export * from './options.js';
export { IngestSetupError, RecordFailedError } from './pipeline/errors.js';
export * from './pipeline/events.js';
export { type ConnectorConfig, type IngestOptions, ingest } from './pipeline/ingest.js';
