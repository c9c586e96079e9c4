import type { ConnectionCheck } from '../contract.js';
import { type ConnectorRole, checkSearchEngine } from '../search-engine/check.js';
import { parseConnectorOptions } from '../search-engine/options.js';
import { connectEngineB, engineBClientSetup } from './client.js';
import { engineBDestinationOptions, engineBSourceOptions } from './config.js';

/**
 * "Save and Test" of an engine_b source or destination config. OpenSearch has no portable "which
 * privileges do I have" call (fine-grained access control is a plugin), so permissions show as the 403 of
 * the index request itself.
 */
export async function checkEngineB(
  config: Record<string, unknown>,
  role: ConnectorRole,
): Promise<ConnectionCheck> {
  let parsed:
    | ReturnType<typeof engineBSourceOptions.parse>
    | ReturnType<typeof engineBDestinationOptions.parse>;
  let notes: string[];
  try {
    parsed =
      role === 'source'
        ? parseConnectorOptions(engineBSourceOptions, config)
        : parseConnectorOptions(engineBDestinationOptions, config);
    notes = engineBClientSetup(parsed).warnings;
  } catch (error) {
    return { ok: false, stage: 'config', message: (error as Error).message };
  }
  return checkSearchEngine({
    connector: 'engine_b',
    index: parsed.index_name,
    role,
    connect: () => connectEngineB({ ...parsed, ssl_show_warn: false }),
    notes,
  });
}
