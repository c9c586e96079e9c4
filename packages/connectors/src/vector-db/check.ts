import { isServiceError } from '@docsvc/partition';
import type { ConnectionCheck } from '../contract.js';
import { isConnectorError } from '../errors.js';
import { vectorDbDestinationOptions } from './config.js';
import { VectorDbDestination } from './destination.js';

/**
 * "Save and Test" for a vector_db destination: every step of the precheck, reported as the stage that
 * failed — config (bad options), dns, tls, connect (server unreachable), auth (credentials refused),
 * permission, not_found (database or collection), schema (fields, dimension, not loaded) — or ok with a
 * summary of the collection. Never throws and never echoes a secret.
 */
export async function checkVectorDbConnection(
  config: Record<string, unknown>,
  expected: { dimension?: number } = {},
): Promise<ConnectionCheck> {
  let destination: VectorDbDestination;
  try {
    destination = new VectorDbDestination(vectorDbDestinationOptions.parse(config), { onWarning: () => {} });
  } catch (error) {
    return failure(error);
  }
  try {
    await destination.precheck(expected);
    const layout = destination.collectionLayout!;
    const vector = layout.byName.get('embeddings');
    return {
      ok: true,
      message: `collection "${layout.collection}" is ready: ${layout.fields.length} fields, vectors of dimension ${vector?.dim}${layout.dynamic ? ', dynamic fields on' : ''}, loaded`,
    };
  } catch (error) {
    return failure(error);
  } finally {
    await destination.close();
  }
}

function failure(error: unknown): ConnectionCheck {
  if (isConnectorError(error)) return { ok: false, stage: error.stage, message: error.message };
  if (isServiceError(error)) return { ok: false, stage: 'config', message: error.message };
  return { ok: false, stage: 'unknown', message: (error as Error)?.message ?? String(error) };
}
