import { ConnectorError, type ConnectorErrorStage } from '../errors.js';

/**
 * Client failures → a ConnectorError whose stage says what to fix: dns, connect, tls, auth, permission,
 * not_found, or the stage of the work being done (read/write/schema). Both official clients throw errors
 * of the same names (ResponseError with `meta.statusCode`/`meta.body`, ConnectionError, TimeoutError), and
 * neither keeps Node's error codes, so network failures are recognised by their messages.
 *
 * Messages carry the host, the index and the server's own reason (type and text), never request bodies,
 * headers or credentials. The original client error is not attached as `cause`: its `meta` holds the
 * request, headers included.
 */

export interface FailureContext {
  connector: string;
  host: string;
  index?: string | undefined;
  /** What was being done, for messages: "reading the index", "writing 500 elements"... */
  action: string;
  /** Stage of errors that are none of the specific ones (a 400 on a write is a `write` error). */
  stage: ConnectorErrorStage;
}

interface ClientErrorShape {
  name?: string;
  message?: string;
  meta?: { statusCode?: number | null; body?: unknown };
}

/** The HTTP status of a client error, or undefined when no response came back. */
export function statusOf(error: unknown): number | undefined {
  const status = (error as ClientErrorShape | undefined)?.meta?.statusCode;
  return typeof status === 'number' && status > 0 ? status : undefined;
}

/** The server's reason: `type: reason` of an engine error, `message` of a cloud error, or an HTML title. */
export function reasonOf(body: unknown): string {
  if (body === undefined || body === null || body === '') return '';
  if (typeof body === 'string') {
    const title = /<title>([^<]*)<\/title>/i.exec(body)?.[1];
    if (title) return title.trim();
    try {
      return reasonOf(JSON.parse(body));
    } catch {
      return truncate(body.replace(/\s+/g, ' ').trim());
    }
  }
  if (typeof body !== 'object') return truncate(String(body));
  const record = body as Record<string, unknown>;
  const error = record.error;
  if (error && typeof error === 'object') {
    const { type, reason } = error as { type?: unknown; reason?: unknown };
    const rootCause = (error as { root_cause?: { reason?: unknown }[] }).root_cause?.[0]?.reason;
    const text = typeof reason === 'string' ? reason : typeof rootCause === 'string' ? rootCause : '';
    return truncate(typeof type === 'string' ? `${type}: ${text}` : text);
  }
  if (typeof error === 'string') return truncate(error);
  for (const key of ['message', 'Message', 'reason']) {
    if (typeof record[key] === 'string') return truncate(record[key] as string);
  }
  return '';
}

function truncate(text: string, limit = 300): string {
  return text.length > limit ? `${text.slice(0, limit)}…` : text;
}

const DNS = /ENOTFOUND|EAI_AGAIN|EAI_NONAME|getaddrinfo/i;
const CONNECT =
  /ECONNREFUSED|ECONNRESET|EHOSTUNREACH|ENETUNREACH|ETIMEDOUT|EPIPE|socket hang up|other side closed|connection closed|terminated/i;
const TLS =
  /certificate|self[- ]signed|\bSSL\b|\bTLS\b|wrong version number|fingerprint|EPROTO|CERT_|unable to verify|handshake/i;

/** Whether retrying the same request may succeed: throttling, a busy or restarting server, a dropped link. */
export function isRetryable(error: unknown): boolean {
  const status = statusOf(error);
  if (status !== undefined) return status === 429 || status === 502 || status === 503 || status === 504;
  const { name = '', message = '' } = (error ?? {}) as ClientErrorShape;
  if (name === 'TimeoutError') return true;
  if (name !== 'ConnectionError') return false;
  return CONNECT.test(message) && !TLS.test(message) && !DNS.test(message);
}

export function toConnectorError(error: unknown, context: FailureContext): ConnectorError {
  if (error instanceof ConnectorError) return error;
  const { connector, host } = context;
  const { name = 'Error', message = String(error) } = (error ?? {}) as ClientErrorShape;
  const make = (stage: ConnectorErrorStage, text: string) =>
    new ConnectorError(connector, stage, `${connector}: ${text}`, {
      cause: new Error(`${name}: ${truncate(message)}`),
    });
  const status = statusOf(error);
  if (status !== undefined) return fromStatus(status, (error as ClientErrorShape).meta?.body, context, make);
  if (name === 'RequestAbortedError' || name === 'AbortError') {
    return make(context.stage, `${context.action} was cancelled`);
  }
  if (name === 'TimeoutError')
    return make('connect', `${host} did not answer in time while ${context.action}`);
  if (name === 'ProductNotSupportedError') {
    return make('connect', `${host} is not an Elasticsearch-compatible server (${truncate(message)})`);
  }
  if (DNS.test(message)) {
    return make('dns', `cannot resolve the host name of ${host} (${truncate(message)}); check hosts`);
  }
  if (TLS.test(message)) return make('tls', `TLS with ${host} failed: ${tlsAdvice(message)}`);
  if (CONNECT.test(message)) {
    return make(
      'connect',
      `cannot connect to ${host} (${truncate(message)}); check that the server runs and the host and port are right`,
    );
  }
  return make(context.stage, `${context.action} failed: ${truncate(message)}`);
}

function tlsAdvice(message: string): string {
  if (/fingerprint/i.test(message)) {
    return "the server's certificate chain does not match ssl_assert_fingerprint";
  }
  if (/wrong version number|EPROTO/i.test(message)) {
    return `${truncate(message, 120)}: the server does not speak TLS on this port (use http://, or no use_ssl)`;
  }
  if (/self[- ]signed|unable to verify|unable to get local issuer/i.test(message)) {
    return `${message}: the server's certificate is not signed by a trusted CA; give the CA bundle with ca_certs`;
  }
  if (/altname|Hostname\/IP does not match/i.test(message)) {
    return `${truncate(message, 160)}: the certificate is not valid for this host name`;
  }
  if (/expired/i.test(message)) return `${message}: the server's certificate has expired`;
  return truncate(message);
}

/** AWS answers 403 with these when temporary credentials ran out (SPEC 5.5). */
const EXPIRED_CREDENTIALS =
  /security token included in the request is expired|ExpiredToken|token has expired/i;
const INVALID_CREDENTIALS =
  /security token included in the request is invalid|signature we calculated does not match|InvalidSignature|UnrecognizedClient|invalid.*access key/i;

function fromStatus(
  status: number,
  body: unknown,
  context: FailureContext,
  make: (stage: ConnectorErrorStage, text: string) => ConnectorError,
): ConnectorError {
  const reason = reasonOf(body);
  const because = reason ? `: ${reason}` : '';
  const { host, index, action } = context;
  if (status === 400 && /plain HTTP request was sent to HTTPS port/i.test(reason)) {
    return make('tls', `${host} expects HTTPS; use an https:// host (or use_ssl)`);
  }
  if (status === 400 && /No required SSL certificate|SSL certificate error/i.test(reason)) {
    return make(
      'tls',
      `${host} requires a client certificate it accepts${because}; give client_cert and client_key`,
    );
  }
  if (EXPIRED_CREDENTIALS.test(reason)) {
    return make(
      'auth',
      `the temporary cloud credentials have expired (${status}${because}); update the connector with a fresh ` +
        'cloud_access_key_id, cloud_secret_access_key and cloud_session_token',
    );
  }
  if (status === 401)
    return make('auth', `authentication failed at ${host} (401${because}); check the credentials`);
  if (status === 403) {
    if (INVALID_CREDENTIALS.test(reason)) {
      return make(
        'auth',
        `the cloud credentials were rejected (403${because}); check the keys, region and service`,
      );
    }
    return make('permission', `permission denied while ${action} (403${because})`);
  }
  if (status === 404) {
    if (/index_not_found|no such index/i.test(reason)) {
      return make('not_found', `index "${index ?? '?'}" does not exist at ${host}`);
    }
    return make('not_found', `${action}: not found (404${because})`);
  }
  if (status === 429) return make(context.stage, `${host} is overloaded (429${because}) while ${action}`);
  return make(context.stage, `${action} failed (${status}${because})`);
}
