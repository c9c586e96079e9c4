/**
 * @docsvc/connectors: the Source/Destination contract and every connector.
 */
export * from './contract.js';
export * from './errors.js';
export * from './local/index.js';
export * from './registry.js';
