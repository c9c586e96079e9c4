import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import {
  createServer as createHttp2Server,
  type Http2ServerRequest,
  type Http2ServerResponse,
  type Http2Session,
} from 'node:http2';
import type { AddressInfo } from 'node:net';

/**
 * A local HTTP server for provider wire tests. It listens on 127.0.0.1 only, records every request
 * (method, path, query, headers, parsed JSON body) so tests can assert exactly what a client sent,
 * and answers through routes that speak one provider's wire format (see the sibling modules).
 * `failNext` makes the next requests fail (429 with Retry-After, 503...) to exercise retries.
 */
export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary wire bodies
  body: any;
  rawBody: Buffer;
}

export interface RouteReply {
  status?: number;
  headers?: Record<string, string>;
  /** JSON-serialised unless it is a Buffer or a string. */
  body?: unknown;
}

export interface Route {
  method: 'POST' | 'GET';
  path: RegExp;
  handle(request: RecordedRequest, match: RegExpMatchArray): RouteReply | Promise<RouteReply>;
}

export interface ProviderServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  url: string;
  requests: RecordedRequest[];
  /** The next `count` requests get this reply instead of reaching a route. */
  failNext(count: number, reply: RouteReply): void;
  /** Delay every answer (to test time limits). */
  setDelay(ms: number): void;
  close(): Promise<void>;
}

/**
 * `http2: true` serves cleartext HTTP/2 (h2c, prior knowledge) instead of HTTP/1.1: the AWS SDK's
 * Bedrock runtime client speaks only HTTP/2, as the real service does.
 */
export async function startProviderServer(
  routes: readonly Route[],
  { http2 = false }: { http2?: boolean } = {},
): Promise<ProviderServer> {
  const requests: RecordedRequest[] = [];
  const failures: RouteReply[] = [];
  let delayMs = 0;
  const handler = async (
    incoming: IncomingMessage | Http2ServerRequest,
    response: ServerResponse | Http2ServerResponse,
  ) => {
    const recorded = await record(incoming);
    requests.push(recorded);
    let reply: RouteReply;
    const failure = failures.shift();
    if (failure) {
      reply = failure;
    } else {
      const route = routes.find((r) => r.method === recorded.method && r.path.test(recorded.path));
      const match = route ? recorded.path.match(route.path) : null;
      try {
        reply =
          route && match
            ? await route.handle(recorded, match)
            : {
                status: 404,
                body: { error: { message: `no route for ${recorded.method} ${recorded.path}` } },
              };
      } catch (error) {
        reply = { status: 500, body: { error: { message: (error as Error).message } } };
      }
    }
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    const isRaw = Buffer.isBuffer(reply.body) || typeof reply.body === 'string';
    const payload = isRaw ? (reply.body as Buffer | string) : JSON.stringify(reply.body ?? {});
    response.writeHead(reply.status ?? 200, {
      'content-type': isRaw ? 'text/plain' : 'application/json',
      ...reply.headers,
    });
    response.end(payload);
  };
  const sessions = new Set<Http2Session>();
  const server = http2 ? createHttp2Server(handler) : createServer(handler);
  if (http2) {
    server.on('session', (session: Http2Session) => {
      sessions.add(session);
      session.on('close', () => sessions.delete(session));
    });
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    failNext(count, reply) {
      for (let i = 0; i < count; i++) failures.push(reply);
    },
    setDelay(ms) {
      delayMs = ms;
    },
    close: () =>
      new Promise<void>((resolve) => {
        if ('closeAllConnections' in server) server.closeAllConnections();
        for (const session of sessions) session.destroy();
        server.close(() => resolve());
      }),
  };
}

async function record(incoming: IncomingMessage | Http2ServerRequest): Promise<RecordedRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  const rawBody = Buffer.concat(chunks);
  const url = new URL(incoming.url ?? '/', 'http://localhost');
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(incoming.headers)) {
    // HTTP/2 pseudo-headers (:path, :method) are not headers a client chose.
    if (value !== undefined && !key.startsWith(':'))
      headers[key] = Array.isArray(value) ? value.join(', ') : value;
  }
  let body: unknown;
  if (rawBody.length > 0) {
    try {
      body = JSON.parse(rawBody.toString('utf8'));
    } catch {
      body = undefined;
    }
  }
  return {
    method: incoming.method ?? 'GET',
    path: decodeURIComponent(url.pathname),
    query: Object.fromEntries(url.searchParams),
    headers,
    body,
    rawBody,
  };
}

/**
 * A deterministic stand-in for a model's vector: the same text always gives the same unit vector, and
 * different texts give different ones, so tests can check that vectors come back in input order.
 */
export function fakeVector(text: string, dimension: number): number[] {
  let state = 2166136261;
  for (let i = 0; i < text.length; i++) state = Math.imul(state ^ text.charCodeAt(i), 16777619) >>> 0;
  const values: number[] = [];
  for (let i = 0; i < dimension; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    values.push(state / 2 ** 31 - 1);
  }
  const norm = Math.hypot(...values) || 1;
  // Rounded so JSON round trips compare exactly.
  return values.map((value) => Math.round((value / norm) * 1e6) / 1e6);
}

/**
 * A scripted chat answer: the content, content with a finish reason (`length`, `max_tokens`...),
 * or a raw reply (errors). Chat servers consume their scripts in order.
 */
export type ScriptedChat = string | { content: string; finishReason?: string } | { reply: RouteReply };

/** The reply an API gives for a missing or wrong key. */
export function unauthorized(message: string): RouteReply {
  return { status: 401, body: { error: { message, type: 'invalid_request_error' } } };
}
