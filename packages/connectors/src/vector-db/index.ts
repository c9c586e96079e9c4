import type { ConnectorDefinition } from '../contract.js';
import { checkVectorDbConnection } from './check.js';
import { vectorDbDestinationOptions } from './config.js';
import { VectorDbDestination } from './destination.js';

export const vectorDbConnector: ConnectorDefinition = {
  type: 'vector_db',
  description: 'a vector database collection (Milvus-compatible)',
  destinationOptions: vectorDbDestinationOptions,
  createDestination: (config) => new VectorDbDestination(vectorDbDestinationOptions.parse(config)),
  checkConnection: async (config, role) =>
    role === 'destination'
      ? checkVectorDbConnection(config)
      : { ok: false, stage: 'config', message: 'vector_db is a destination only' },
};

export { checkVectorDbConnection } from './check.js';
export {
  VARCHAR_OVERFLOW_POLICIES,
  type VarcharOverflowPolicy,
  type VectorDbConfig,
  vectorDbDestinationOptions,
} from './config.js';
export { VectorDbDestination, type VectorDbDestinationRuntime } from './destination.js';
export { quoteFilterString } from './filter.js';
export { primaryKeys } from './keys.js';
export type { CollectionLayout, FieldInfo } from './layout.js';
export {
  type CreateCollectionOptions,
  type CreateCollectionResult,
  createSpecCollection,
  metadataFields,
  minimalFields,
  SPEC_INDEX,
  specFields,
} from './schema.js';
export type { VectorDbRow, VectorDbStaged } from './stage.js';

/** Create the SPEC 2.7 collection named in `config` (see VectorDbDestination.createTarget). */
export async function createVectorDbCollection(
  config: Record<string, unknown>,
  options: { dimension: number; extended?: boolean; dynamic_fields?: boolean },
) {
  const destination = new VectorDbDestination(vectorDbDestinationOptions.parse(config));
  try {
    return await destination.createCollection(options);
  } finally {
    await destination.close();
  }
}
