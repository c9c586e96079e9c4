import { setTimeout as sleep } from 'node:timers/promises';
import { ConnectorError } from '@docsvc/connectors';
import { type Element, elementsFromValue, ServiceError } from '@docsvc/partition';

export interface PartitionApiSettings {
  endpoint: string;
  apiKey: string | undefined;
  timeoutMs: number;
  maxRetries: number;
  /** Form fields sent with every file: partition options, then additional_partition_args on top. */
  fields: Record<string, unknown>;
}

export interface ApiDocument {
  data: Uint8Array;
  filename: string;
  content_type?: string | undefined;
}

/** Statuses worth another try: the server is busy or briefly broken. */
const RETRYABLE = new Set([408, 429, 500, 502, 503, 504]);
const BASE_DELAY_MS = 1_000;
const MAX_DELAY_MS = 30_000;

/**
 * Partition one document through the partition endpoint (`--partition-by-api`). Retries with exponential
 * backoff (and Retry-After) on 429/5xx, time-outs and connection errors; other statuses fail with the
 * server's `detail`: 401/403 as ConnectorError `auth`/`permission` (the key, not the document, is wrong),
 * the rest as ServiceErrors. The key travels in the `service-api-key` header and never appears in errors.
 */
export async function partitionViaApi(
  document: ApiDocument,
  settings: PartitionApiSettings,
  signal?: AbortSignal,
): Promise<Element[]> {
  for (let attempt = 0; ; attempt++) {
    let response: Response;
    let body: unknown;
    try {
      response = await fetch(settings.endpoint, {
        method: 'POST',
        body: buildForm(document, settings.fields),
        headers: {
          accept: 'application/json',
          ...(settings.apiKey ? { 'service-api-key': settings.apiKey } : {}),
        },
        signal: signal
          ? AbortSignal.any([signal, AbortSignal.timeout(settings.timeoutMs)])
          : AbortSignal.timeout(settings.timeoutMs),
      });
      // The answer is read under the same time limit, and a connection cut mid-answer is retried too.
      if (response.ok) body = await readJson(response);
    } catch (error) {
      if (signal?.aborted || error instanceof ServiceError) throw error;
      if (attempt >= settings.maxRetries) {
        throw new ServiceError(
          'provider_error',
          `partition endpoint ${displayUrl(settings.endpoint)} unreachable (${attempts(attempt + 1)}): ${networkReason(error, settings.timeoutMs)}`,
          { cause: error },
        );
      }
      await sleep(backoff(attempt), undefined, { signal });
      continue;
    }
    if (response.ok) return elementsFromValue(body);
    if (RETRYABLE.has(response.status) && attempt < settings.maxRetries) {
      await response.body?.cancel();
      await sleep(retryAfterMs(response) ?? backoff(attempt), undefined, { signal });
      continue;
    }
    throw await apiError(response, attempt + 1);
  }
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    throw new ServiceError(
      'provider_error',
      `partition endpoint answered ${response.status} with invalid JSON`,
    );
  }
}

/** The endpoint without credentials or query (a key in the address must not reach a log). */
function displayUrl(endpoint: string): string {
  try {
    const url = new URL(endpoint);
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return '(invalid address)';
  }
}

/** fetch() says only "fetch failed"; the reason (ECONNREFUSED, ENOTFOUND...) is in its cause. */
function networkReason(error: unknown, timeoutMs: number): string {
  const failure = error as Error & { cause?: { code?: string; message?: string } };
  if (failure?.name === 'TimeoutError') return `no answer within ${timeoutMs} ms`;
  return failure?.cause?.message ?? failure?.cause?.code ?? failure?.message ?? String(error);
}

function buildForm(document: ApiDocument, fields: Record<string, unknown>): FormData {
  const form = new FormData();
  form.append(
    'files',
    new Blob([document.data], { type: document.content_type ?? 'application/octet-stream' }),
    document.filename,
  );
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const item of value) form.append(name, String(item));
    else form.append(name, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  return form;
}

function backoff(attempt: number): number {
  return Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** attempt) * (0.75 + Math.random() * 0.5);
}

function retryAfterMs(response: Response): number | undefined {
  const header = response.headers.get('retry-after');
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.min(MAX_DELAY_MS * 4, seconds * 1000);
  const date = Date.parse(header);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined;
}

const attempts = (count: number): string => (count === 1 ? '1 attempt' : `${count} attempts`);

async function apiError(response: Response, tries: number): Promise<ServiceError | ConnectorError> {
  let detail: unknown;
  try {
    detail = ((await response.json()) as { detail?: unknown }).detail;
  } catch {
    detail = response.statusText;
  }
  const text = typeof detail === 'string' ? detail : JSON.stringify(detail);
  const message = `partition endpoint answered ${response.status}${tries > 1 ? ` (after ${attempts(tries)})` : ''}: ${text}`;
  if (response.status === 401) return new ConnectorError('partition_endpoint', 'auth', message);
  if (response.status === 403) return new ConnectorError('partition_endpoint', 'permission', message);
  const code =
    response.status === 400 || response.status === 415
      ? 'unsupported_file_type'
      : response.status === 422
        ? Array.isArray(detail)
          ? 'invalid_option'
          : 'corrupt_document'
        : response.status === 413
          ? 'limit_exceeded'
          : 'provider_error';
  return new ServiceError(code, message);
}
