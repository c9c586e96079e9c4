import type { ConnectorDefinition } from '../contract.js';
import { parseConnectorOptions } from '../search-engine/options.js';
import { checkEngineB } from './check.js';
import { engineBDestinationOptions, engineBSourceOptions } from './config.js';
import { createEngineBDestination } from './destination.js';
import { createEngineBSource } from './source.js';

export const engineBConnector: ConnectorDefinition = {
  type: 'engine_b',
  description: 'engine_b, an OpenSearch-compatible search engine (local or a cloud-managed domain).',
  sourceOptions: engineBSourceOptions,
  destinationOptions: engineBDestinationOptions,
  createSource: (config) => createEngineBSource(parseConnectorOptions(engineBSourceOptions, config)),
  createDestination: (config) =>
    createEngineBDestination(parseConnectorOptions(engineBDestinationOptions, config)),
  checkConnection: checkEngineB,
};

export { type CloudEndpoint, type CloudService, detectCloudEndpoint } from './aws-host.js';
export { checkEngineB } from './check.js';
export { connectEngineB, engineBClientSetup, engineBHosts, readClientCertificate } from './client.js';
export {
  type EngineBDestinationConfig,
  type EngineBSourceConfig,
  engineBDestinationOptions,
  engineBSourceOptions,
} from './config.js';
export { createEngineBDestination } from './destination.js';
export { engineBDialect, type KnnEngine } from './dialect.js';
export { type CloudCredentials, type SigningScope, signRequest, sigV4Connection } from './sigv4.js';
export { createEngineBSource } from './source.js';
