/**
 * Connector failures carry a stage users can act on (auth, tls, not_found...) and never a secret.
 * They are not ServiceErrors: those describe bad documents; these describe unreachable systems.
 */
export type ConnectorErrorStage =
  | 'config'
  | 'dns'
  | 'connect'
  | 'tls'
  | 'auth'
  | 'permission'
  | 'not_found'
  | 'schema'
  | 'write'
  | 'read'
  | 'unknown';

export class ConnectorError extends Error {
  override readonly name = 'ConnectorError';
  constructor(
    readonly connector: string,
    readonly stage: ConnectorErrorStage,
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
  }
}

export function isConnectorError(error: unknown): error is ConnectorError {
  return error instanceof ConnectorError;
}
