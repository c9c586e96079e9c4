import type { ClientRequest } from 'node:http';
import { Connection, errors } from '@opensearch-project/opensearch';
import { Hash } from '@smithy/hash-node';
import { SignatureV4 } from '@smithy/signature-v4';

/**
 * SigV4 signing of engine_b requests with IAM credentials (SPEC 2.3, 5.5), by the AWS SDK's own signer
 * (@smithy/signature-v4 with Node's SHA-256), plugged into the official client as its Connection class:
 * every request, retries included, is signed right before it is sent, over exactly the method, path,
 * query, headers and body that go on the wire.
 */

export interface CloudCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string | undefined;
}

export interface SigningScope {
  region: string;
  service: string;
  credentials: CloudCredentials;
  /** Clock override, for tests against fixed signatures. */
  now?: () => Date;
}

export interface RequestToSign {
  method: string;
  protocol: string;
  hostname: string;
  /** The port as written in the URL, '' when it is the protocol's default. */
  port: string;
  /** Path and query as sent (already percent-encoded once). */
  path: string;
  headers: Record<string, string>;
  body: string | Buffer | undefined;
}

/** The headers to add to the request: authorization, x-amz-date, x-amz-content-sha256 (+ token), host. */
export async function signRequest(
  request: RequestToSign,
  scope: SigningScope,
): Promise<Record<string, string>> {
  const signer = new SignatureV4({
    credentials: scope.credentials,
    region: scope.region,
    service: scope.service,
    sha256: Hash.bind(null, 'sha256'),
    // Non-S3 services want the path encoded twice: once by the client (as sent), once in the signature.
    uriEscapePath: true,
    applyChecksum: true,
  });
  const url = new URL(request.path, 'http://placeholder');
  const query: Record<string, string | string[]> = {};
  for (const [key, value] of url.searchParams) {
    const existing = query[key];
    query[key] =
      existing === undefined ? value : [...(Array.isArray(existing) ? existing : [existing]), value];
  }
  // The host header is signed, so it must be exactly what Node sends: the port only when not the default.
  const host = request.port === '' ? request.hostname : `${request.hostname}:${request.port}`;
  const signed = await signer.sign(
    {
      method: request.method,
      protocol: request.protocol,
      hostname: request.hostname,
      ...(request.port === '' ? {} : { port: Number(request.port) }),
      path: url.pathname,
      query,
      headers: { ...lowerCaseKeys(request.headers), host },
      body: request.body ?? '',
    },
    scope.now ? { signingDate: scope.now() } : {},
  );
  return signed.headers;
}

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  const lowered: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && value !== null) lowered[name.toLowerCase()] = String(value);
  }
  return lowered;
}

type ConnectionParams = Parameters<Connection['request']>[0];
type RequestCallback = Parameters<Connection['request']>[1];

/** A Connection class for `new Client({ Connection })` that signs each request for `scope`. */
export function sigV4Connection(scope: SigningScope): typeof Connection {
  return class SigV4Connection extends Connection {
    override request(params: ConnectionParams, callback: RequestCallback): ClientRequest {
      let aborted = false;
      let sent: ClientRequest | undefined;
      const body = params.body ?? undefined;
      if (body !== undefined && typeof body !== 'string' && !Buffer.isBuffer(body)) {
        callback(
          new errors.ConfigurationError('SigV4 signing needs the whole request body, not a stream'),
          null,
        );
        return { abort() {} } as unknown as ClientRequest;
      }
      const built = this.buildRequestObject(params) as {
        protocol: string;
        hostname: string;
        port?: string;
        path: string;
        headers: Record<string, string>;
      };
      signRequest(
        {
          method: params.method ?? 'GET',
          protocol: built.protocol,
          hostname: built.hostname,
          port: built.port ?? '',
          path: built.path,
          headers: built.headers,
          body,
        },
        scope,
      ).then(
        (signedHeaders) => {
          if (aborted) {
            callback(new errors.RequestAbortedError('Request aborted', undefined), null);
            return;
          }
          sent = super.request({ ...params, headers: { ...params.headers, ...signedHeaders } }, callback);
        },
        (error: unknown) => callback(error as Error, null),
      );
      // The transport only ever calls abort() on what request() returns.
      return {
        abort() {
          aborted = true;
          sent?.abort();
        },
      } as unknown as ClientRequest;
    }
  };
}
