import type { FastifyRequest } from 'fastify';
import type { KeyStore } from '../keys/store.js';
import { HttpError } from './http-error.js';

/** SPEC 5.1: the header that carries the service API key. */
export const API_KEY_HEADER = 'service-api-key';

export interface RequestAuth {
  keyId: string;
  workspaceId: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth?: RequestAuth;
  }
}

/**
 * Authenticate a request by its `service-api-key` header: 401 when missing or unknown, 403 when revoked.
 * Messages never echo the presented key.
 */
export async function authenticate(request: FastifyRequest, keys: KeyStore): Promise<RequestAuth> {
  const header = request.headers[API_KEY_HEADER];
  const key = Array.isArray(header) ? header[0] : header;
  if (!key) throw new HttpError(401, 'API key is missing, please provide an API key in the header.');
  const found = await keys.authenticate(key.trim());
  if (!found) throw new HttpError(401, 'API key is invalid, please provide a valid API key in the header.');
  if (found.revoked) throw new HttpError(403, 'API key has been revoked.');
  request.auth = { keyId: found.id, workspaceId: found.workspace_id };
  return request.auth;
}
