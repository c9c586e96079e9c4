import type { ConnectionCheck } from '../contract.js';
import { type ConnectorRole, checkSearchEngine } from '../search-engine/check.js';
import { parseConnectorOptions } from '../search-engine/options.js';
import type { EngineTransport } from '../search-engine/transport.js';
import { connectEngineA } from './client.js';
import { engineADestinationOptions, engineASourceOptions } from './config.js';

/** Privileges each role needs on its index (`write` or `all` grant `index` and `delete` too). */
function neededPrivileges(role: ConnectorRole, indexExists: boolean): string[] {
  if (role === 'source') return ['read', 'view_index_metadata'];
  return [...(indexExists ? [] : ['create_index']), 'index', 'delete', 'read', 'view_index_metadata'];
}

/**
 * engine_a can say which privileges the credentials lack (`_has_privileges`), for users, API keys and
 * tokens alike; a cluster without security answers 4xx/5xx and nothing is concluded.
 */
async function missingPrivileges(
  transport: EngineTransport,
  index: string,
  indexExists: boolean,
  role: ConnectorRole,
): Promise<string[] | undefined> {
  const privileges = neededPrivileges(role, indexExists);
  try {
    const { body } = await transport.request<{ index?: Record<string, Record<string, boolean>> }>({
      method: 'POST',
      path: '/_security/user/_has_privileges',
      body: { index: [{ names: [index], privileges }] },
    });
    const granted = body.index?.[index];
    if (!granted) return undefined;
    return privileges.filter((privilege) => granted[privilege] === false);
  } catch {
    return undefined;
  }
}

/** "Save and Test" of an engine_a source or destination config. */
export async function checkEngineA(
  config: Record<string, unknown>,
  role: ConnectorRole,
): Promise<ConnectionCheck> {
  let parsed:
    | ReturnType<typeof engineASourceOptions.parse>
    | ReturnType<typeof engineADestinationOptions.parse>;
  try {
    parsed =
      role === 'source'
        ? parseConnectorOptions(engineASourceOptions, config)
        : parseConnectorOptions(engineADestinationOptions, config);
  } catch (error) {
    return { ok: false, stage: 'config', message: (error as Error).message };
  }
  return checkSearchEngine({
    connector: 'engine_a',
    index: parsed.index_name,
    role,
    connect: () => connectEngineA(parsed),
    missingPrivileges: (transport, exists) => missingPrivileges(transport, parsed.index_name, exists, role),
  });
}
