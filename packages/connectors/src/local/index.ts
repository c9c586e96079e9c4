import type { ConnectorDefinition } from '../contract.js';
import { localDestinationOptions, localSourceOptions } from './config.js';
import { LocalDestination } from './destination.js';
import { LocalSource } from './source.js';

export const localConnector: ConnectorDefinition = {
  type: 'local',
  description: 'Files on the local file system.',
  sourceOptions: localSourceOptions,
  destinationOptions: localDestinationOptions,
  createSource: (config) => new LocalSource(localSourceOptions.parse(config)),
  createDestination: (config) => new LocalDestination(localDestinationOptions.parse(config)),
};

export { localDestinationOptions, localSourceOptions } from './config.js';
export { LocalDestination } from './destination.js';
export { LocalSource } from './source.js';
