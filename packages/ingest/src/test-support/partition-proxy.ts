import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** What the proxy saw of one partition request. */
export interface SeenRequest {
  /** Form fields, by name (repeated names keep every value). */
  fields: Record<string, string[]>;
  /** Name of the uploaded file. */
  filename: string | undefined;
  /** The service-api-key header, if any. */
  apiKey: string | undefined;
}

/**
 * How to answer the next request: pass it on to the target, answer with a status of our own, or never
 * answer (the client's time limit has to end it).
 */
export type Answer =
  | 'forward'
  | 'hang'
  | { status: number; headers?: Record<string, string>; detail?: string };

export interface PartitionProxy {
  /** The proxy's partition address (same path as the target's). */
  url: string;
  requests: SeenRequest[];
  /** Answers for the next requests, taken in order; when empty, requests are forwarded. */
  script: Answer[];
  /** Hold every request this long before answering (to observe how many are in flight at once). */
  holdMs: number;
  /** Most requests in flight at the same time so far. */
  maxInFlight: number;
  close(): Promise<void>;
}

/**
 * A real HTTP server in front of a partition endpoint: it records every request (form fields, file name,
 * key), and answers as scripted (503 twice, then forward...). Tests use it to see what `service-ingest`
 * sends and how it reacts, over real sockets.
 */
export async function startPartitionProxy(target: string): Promise<PartitionProxy> {
  let inFlight = 0;
  const proxy: Omit<PartitionProxy, 'url' | 'close'> = {
    requests: [],
    script: [],
    holdMs: 0,
    maxInFlight: 0,
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    inFlight++;
    proxy.maxInFlight = Math.max(proxy.maxInFlight, inFlight);
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks);
      const contentType = request.headers['content-type'] ?? '';
      const apiKey = request.headers['service-api-key'] as string | undefined;
      const seen: SeenRequest = { fields: {}, filename: undefined, apiKey };
      const form = await new Request('http://proxy.invalid/', {
        method: 'POST',
        headers: { 'content-type': contentType },
        body,
      }).formData();
      for (const [name, value] of form) {
        if (typeof value === 'string') seen.fields[name] = [...(seen.fields[name] ?? []), value];
        else seen.filename = value.name;
      }
      proxy.requests.push(seen);
      if (proxy.holdMs > 0) await sleep(proxy.holdMs);

      const answer = proxy.script.shift() ?? 'forward';
      if (answer === 'hang') return; // the client gives up; close() ends the socket
      if (answer !== 'forward') {
        response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
        response.end(JSON.stringify({ detail: answer.detail ?? `scripted ${answer.status}` }));
        return;
      }
      const upstream = await fetch(target, {
        method: 'POST',
        headers: {
          'content-type': contentType,
          accept: 'application/json',
          ...(apiKey ? { 'service-api-key': apiKey } : {}),
        },
        body,
      });
      response.writeHead(upstream.status, {
        'content-type': upstream.headers.get('content-type') ?? 'application/json',
      });
      response.end(Buffer.from(await upstream.arrayBuffer()));
    } catch (error) {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ detail: `proxy failure: ${(error as Error).message}` }));
    } finally {
      inFlight--;
    }
  };

  const server = createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const path = new URL(target).pathname;
  return Object.assign(proxy, {
    url: `http://127.0.0.1:${port}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
