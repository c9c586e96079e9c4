/**
 * @docsvc/connectors: the Source/Destination contract and every connector.
 */
export * from './contract.js';
export * from './engine-a/index.js';
export * from './engine-b/index.js';
export * from './errors.js';
export * from './local/index.js';
export * from './registry.js';
export * from './search-engine/index.js';
export * from './staging/index.js';
export * from './vector-db/index.js';
