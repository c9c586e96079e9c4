/**
 * The one low-level call the shared search-engine code makes: an HTTP request through an official client
 * (@elastic/elasticsearch for engine_a, @opensearch-project/opensearch for engine_b). The clients do the
 * connection pooling, TLS, authentication and error typing; everything above this interface (bulk writes,
 * point-in-time scans, mappings, record updates) is written once for both engines against their common
 * REST API.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'HEAD';

export interface EngineRequest {
  method: HttpMethod;
  path: string;
  querystring?: Record<string, string | number | boolean | undefined>;
  /** A JSON body (serialised by the client). */
  body?: unknown;
  /** A ready NDJSON body (`_bulk`), sent as is. */
  bulkBody?: string;
}

export interface EngineResponse<T> {
  statusCode: number;
  body: T;
}

export interface EngineRequestOptions {
  signal?: AbortSignal | undefined;
  /** Statuses answered normally instead of thrown (e.g. 404 for "does the index exist"). */
  ignore?: number[];
}

export interface EngineTransport {
  /** `engine_a` or `engine_b`, for messages. */
  readonly connector: string;
  /** The URLs requests go to, without credentials, for messages and record locators. */
  readonly hosts: readonly string[];
  request<T = unknown>(request: EngineRequest, options?: EngineRequestOptions): Promise<EngineResponse<T>>;
  close(): Promise<void>;
}

/** `/<index>` with the name escaped the way the engines expect in a path. */
export function indexPath(index: string, ...rest: string[]): string {
  return [`/${encodeURIComponent(index)}`, ...rest.map((part) => encodeURIComponent(part))].join('/');
}
