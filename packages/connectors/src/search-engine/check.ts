import { isServiceError } from '@docsvc/partition';
import type { ConnectionCheck } from '../contract.js';
import { isConnectorError } from '../errors.js';
import { toConnectorError } from './classify.js';
import { checkIndexName } from './index-name.js';
import { readIndexLayout } from './mapping.js';
import { type EngineTransport, indexPath } from './transport.js';

export type ConnectorRole = 'source' | 'destination';

export interface SearchEngineCheck {
  connector: string;
  index: string;
  role: ConnectorRole;
  /** Builds the client from the config; throws ServiceError invalid_option on a bad config. */
  connect: () => EngineTransport;
  /**
   * Privileges the credentials lack for this role, when the engine can tell (engine_a's
   * `_has_privileges`); undefined when it cannot.
   */
  missingPrivileges?: (
    transport: EngineTransport,
    indexExists: boolean,
    role: ConnectorRole,
  ) => Promise<string[] | undefined>;
  /** Said after a success (e.g. "certificate verification is off"). */
  notes?: string[];
}

/**
 * "Save and Test" for a search engine: one request to the index itself (`GET /<index>`), which goes
 * through every layer in order and so fails at the first broken one: DNS, TCP connect, TLS, the
 * credentials (401), the permission on this index (403), the index (404). Nothing is written.
 * A destination's missing index is not a failure: it is created with the SPEC 2.7 mapping on the first
 * upload, if the credentials may create it.
 */
export async function checkSearchEngine(check: SearchEngineCheck): Promise<ConnectionCheck> {
  let transport: EngineTransport;
  try {
    checkIndexName(check.index);
    transport = check.connect();
  } catch (error) {
    return failed(error, 'config');
  }
  const host = transport.hosts[0] ?? '(no host)';
  try {
    const { statusCode, body } = await transport.request(
      { method: 'GET', path: indexPath(check.index) },
      { ignore: [404] },
    );
    const exists = statusCode !== 404;
    if (!exists && check.role === 'source') {
      return {
        ok: false,
        stage: 'not_found',
        message: `${check.connector}: index "${check.index}" does not exist at ${host}`,
      };
    }
    const missing = await check.missingPrivileges?.(transport, exists, check.role);
    if (missing && missing.length > 0) {
      return {
        ok: false,
        stage: 'permission',
        message: `${check.connector}: the credentials lack ${missing.join(', ')} on index "${check.index}" at ${host}`,
      };
    }
    const notes = [...(check.notes ?? [])];
    let message: string;
    if (exists) {
      const dimension = readIndexLayout(body).dimension;
      message = `${check.connector}: connected to ${host}; index "${check.index}" exists${
        dimension === undefined ? '' : ` (embeddings of ${dimension} dimensions)`
      }`;
    } else {
      message = `${check.connector}: connected to ${host}; index "${check.index}" does not exist yet and will be created with the SPEC 2.7 mapping on the first upload`;
    }
    return { ok: true, message: [message, ...notes].join('; ') };
  } catch (error) {
    return failed(
      toConnectorError(error, {
        connector: check.connector,
        host,
        index: check.index,
        action: `reading index "${check.index}"`,
        stage: 'unknown',
      }),
      'unknown',
    );
  } finally {
    await transport.close().catch(() => undefined);
  }
}

function failed(error: unknown, fallback: string): ConnectionCheck {
  if (isConnectorError(error)) return { ok: false, stage: error.stage, message: error.message };
  if (isServiceError(error)) return { ok: false, stage: 'config', message: error.message };
  return { ok: false, stage: fallback, message: (error as Error)?.message ?? String(error) };
}
