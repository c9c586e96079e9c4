import type { ConnectorDefinition } from '../contract.js';
import { parseConnectorOptions } from '../search-engine/options.js';
import { checkEngineA } from './check.js';
import { engineADestinationOptions, engineASourceOptions } from './config.js';
import { createEngineADestination } from './destination.js';
import { createEngineASource } from './source.js';

export const engineAConnector: ConnectorDefinition = {
  type: 'engine_a',
  description: 'engine_a, an Elasticsearch-compatible search engine (self-managed or cloud-hosted).',
  sourceOptions: engineASourceOptions,
  destinationOptions: engineADestinationOptions,
  createSource: (config) => createEngineASource(parseConnectorOptions(engineASourceOptions, config)),
  createDestination: (config) =>
    createEngineADestination(parseConnectorOptions(engineADestinationOptions, config)),
  checkConnection: checkEngineA,
};

export { checkEngineA } from './check.js';
export { cloudIdUrl, connectEngineA, engineAAuth, engineAClientOptions, engineAHosts } from './client.js';
export {
  type EngineADestinationConfig,
  type EngineASourceConfig,
  engineADestinationOptions,
  engineASourceOptions,
} from './config.js';
export { createEngineADestination } from './destination.js';
export { engineADialect } from './dialect.js';
export { createEngineASource } from './source.js';
