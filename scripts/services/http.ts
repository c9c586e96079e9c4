import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

/**
 * A minimal HTTP(S) JSON client for health checks and set-up calls (API keys). It uses node:http
 * directly so that a CA file and basic auth can be given per call without an extra dependency.
 */
export interface HttpOptions {
  method?: string;
  body?: unknown;
  /** `user:password` for basic auth. */
  basicAuth?: string;
  headers?: Record<string, string>;
  /** PEM of the CA that signed the server's certificate (https only). */
  ca?: string | Buffer;
  timeoutMs?: number;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: <T = unknown>() => T;
}

export function httpJson(url: string, options: HttpOptions = {}): Promise<HttpResponse> {
  const target = new URL(url);
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (options.basicAuth) headers.authorization = `Basic ${Buffer.from(options.basicAuth).toString('base64')}`;
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolvePromise, reject) => {
    const req = send(
      target,
      { method: options.method ?? 'GET', headers, ...(options.ca ? { ca: options.ca } : {}) },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolvePromise({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text,
            json: <T>() => JSON.parse(text) as T,
          });
        });
        res.on('error', reject);
      },
    );
    req.setTimeout(options.timeoutMs ?? 10_000, () => req.destroy(new Error(`timeout calling ${url}`)));
    req.on('error', reject);
    req.end(body);
  });
}
