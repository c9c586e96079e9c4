import { readFileSync } from 'node:fs';
import { MilvusClient } from '@zilliz/milvus2-sdk-node';
import { ConnectorError, type ConnectorErrorStage } from '../errors.js';
import type { VectorDbConfig } from './config.js';

export const CONNECTOR = 'vector_db';

export type VectorDbConnection = Pick<
  VectorDbConfig,
  'uri' | 'user' | 'password' | 'token' | 'ca_certs' | 'db_name' | 'timeout_ms'
>;

/**
 * A client of the official SDK for one database. The SDK connects in the background as soon as it is
 * constructed; that promise is observed here so an unreachable server never becomes an unhandled
 * rejection, and `connected()` re-reads it to report the failure where it matters.
 */
export function createVectorDbClient(connection: VectorDbConnection): MilvusClient {
  const address = connection.uri.trim().replace(/\/+$/, '');
  if (address === '') throw new ConnectorError(CONNECTOR, 'config', 'uri is empty');
  const client = new MilvusClient({
    address,
    ...(connection.ca_certs ? { tls: { rootCert: readCaCerts(connection) } } : {}),
    database: connection.db_name,
    timeout: connection.timeout_ms,
    logLevel: 'error',
    ...(connection.token
      ? { token: connection.token }
      : connection.user || connection.password
        ? { username: connection.user ?? '', password: connection.password ?? '' }
        : {}),
  });
  client.connectPromise.catch(() => {});
  return client;
}

/**
 * The CA bundle, read here so a wrong path is a config error naming the option. The SDK would also
 * switch an http:// address to TLS when given a CA; that mix is refused instead of guessed.
 */
function readCaCerts(connection: VectorDbConnection): Buffer {
  if (!/^https:\/\//i.test(connection.uri.trim()))
    throw new ConnectorError(CONNECTOR, 'config', 'ca_certs needs an https:// uri (TLS); the uri is not one');
  try {
    return readFileSync(connection.ca_certs!);
  } catch (error) {
    throw new ConnectorError(
      CONNECTOR,
      'config',
      `cannot read ca_certs ${connection.ca_certs}: ${(error as Error).message}`,
      { cause: error },
    );
  }
}

/** Wait for the SDK's connection; a failure becomes a ConnectorError with its stage. */
export async function connected(client: MilvusClient, uri: string): Promise<void> {
  try {
    await client.connectPromise;
  } catch (error) {
    throw toConnectorError(error, `cannot connect to ${uri}`);
  }
}

/** The status block the SDK returns from most calls instead of throwing. */
export interface MilvusStatus {
  error_code?: string | number;
  code?: number;
  reason?: string;
}

export function isSuccess(status: MilvusStatus | undefined): boolean {
  return status !== undefined && (status.error_code === 'Success' || status.error_code === 0) && !status.code;
}

/** Throw a ConnectorError for a failed status; `what` says what was attempted. */
export function ensureSuccess(
  status: MilvusStatus | undefined,
  what: string,
  stage?: ConnectorErrorStage,
): void {
  if (isSuccess(status)) return;
  const reason = status?.reason || `error ${String(status?.error_code ?? 'unknown')}`;
  throw new ConnectorError(CONNECTOR, stage ?? stageOfStatus(status), `${what}: ${reason}`);
}

/**
 * Milvus reports most failures as a status (a legacy error_code name plus a numeric code), and transport
 * failures as gRPC errors. Codes: 100 collection not found, 101 not loaded, 800 database not found,
 * 1100 invalid parameter, 1400/1401 privilege, 1800 authentication (merr).
 */
function stageOfStatus(status: MilvusStatus | undefined): ConnectorErrorStage {
  const code = status?.code;
  const name = String(status?.error_code ?? '');
  const reason = status?.reason ?? '';
  if (
    code === 100 ||
    code === 800 ||
    /NotExist|NotFound/i.test(name) ||
    /does not exist|not found/i.test(reason)
  )
    return 'not_found';
  if (code === 1800 || /Authenticat/i.test(name) || /auth|credential|password|token/i.test(reason))
    return 'auth';
  if (
    code === 1400 ||
    code === 1401 ||
    /Permission|Privilege/i.test(name) ||
    /permission|privilege/i.test(reason)
  )
    return 'permission';
  return 'write';
}

interface GrpcLikeError {
  code?: unknown;
  details?: unknown;
  message?: unknown;
}

/**
 * Classify a thrown SDK/gRPC error by what users can act on: DNS, TLS, connection, authentication or
 * permission. The message never carries credentials (the SDK does not put them in errors).
 */
export function toConnectorError(error: unknown, what: string): ConnectorError {
  if (error instanceof ConnectorError) return error;
  const grpc = (error ?? {}) as GrpcLikeError;
  const text = `${String(grpc.message ?? error)} ${String(grpc.details ?? '')}`;
  const reason = String(grpc.details ?? grpc.message ?? error).replace(/ \(retried \d+ times, \d+ms\)$/, '');
  return new ConnectorError(CONNECTOR, classifyTransportError(grpc.code, text), `${what}: ${reason}`, {
    cause: error,
  });
}

export function classifyTransportError(code: unknown, text: string): ConnectorErrorStage {
  if (/Name resolution failed|ENOTFOUND|EAI_AGAIN|getaddrinfo/i.test(text)) return 'dns';
  if (/SSL|TLS|certificate|wrong version number|handshake/i.test(text)) return 'tls';
  if (code === 16 || /UNAUTHENTICATED|auth check failure|authenticat/i.test(text)) return 'auth';
  if (code === 7 || /PERMISSION_DENIED|privilege/i.test(text)) return 'permission';
  if (
    code === 14 ||
    code === 4 ||
    /ECONNREFUSED|ECONNRESET|EHOSTUNREACH|ETIMEDOUT|No connection established|DEADLINE_EXCEEDED|UNAVAILABLE/i.test(
      text,
    )
  )
    return 'connect';
  return 'unknown';
}
