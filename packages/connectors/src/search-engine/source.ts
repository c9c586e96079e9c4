import { createHash } from 'node:crypto';
import type { FetchedRecord, RecordDescriptor, Source } from '../contract.js';
import { ConnectorError } from '../errors.js';
import { toConnectorError } from './classify.js';
import type { SearchEngineDialect } from './dialect.js';
import { documentText } from './document-text.js';
import { checkIndexName } from './index-name.js';
import { readIndexLayout } from './mapping.js';
import type { RetryPolicy } from './retry.js';
import { type SearchHit, scanIndex } from './scan.js';
import { type EngineTransport, indexPath } from './transport.js';

export interface SearchEngineSourceSettings {
  index: string;
  /** Fields to read (`_source` filtering); undefined or empty: the whole document. */
  fields: readonly string[] | undefined;
  /** Documents per search page. */
  pageSize: number;
  retry: RetryPolicy;
  /** The configured hosts as URLs, for record locators (SPEC: `record_locator.hosts`). */
  hosts: readonly string[];
  /** Base URL of record URLs: the first host, or the cluster URL a cloud id names. */
  baseUrl: string;
}

/**
 * engine_a/engine_b as a source: every document of an index is one record, read with a point in time and
 * `search_after` (scroll where a point in time is not available), one page at a time, so an index of any
 * size is listed with flat memory. The listed page's `_source` is kept for `fetch` (weakly, by descriptor:
 * it goes away with the descriptor); a descriptor `fetch` has not seen listed (another process, a retry)
 * is read again by id. Each document becomes plain text (document-text.ts) named `<index>-<id>.txt`.
 */
export class SearchEngineSource implements Source {
  readonly type: string;
  private shards: number | undefined;
  private readonly listed = new WeakMap<RecordDescriptor, Record<string, unknown>>();

  constructor(
    private readonly transport: EngineTransport,
    private readonly dialect: SearchEngineDialect,
    private readonly settings: SearchEngineSourceSettings,
  ) {
    checkIndexName(settings.index);
    this.type = dialect.connector;
  }

  private get index(): string {
    return this.settings.index;
  }

  private get fields(): string[] | undefined {
    return this.settings.fields && this.settings.fields.length > 0 ? [...this.settings.fields] : undefined;
  }

  private failure(error: unknown, action: string) {
    return toConnectorError(error, {
      connector: this.type,
      host: this.transport.hosts[0] ?? this.settings.baseUrl,
      index: this.index,
      action,
      stage: 'read',
    });
  }

  /** The index must exist and be readable (one GET of this index only: index-scoped keys can do it). */
  async precheck(): Promise<void> {
    try {
      const { body } = await this.transport.request({ method: 'GET', path: indexPath(this.index) });
      this.shards = readIndexLayout(body).shards;
    } catch (error) {
      throw this.failure(error, `reading index "${this.index}"`);
    }
  }

  async *list(signal?: AbortSignal): AsyncIterable<RecordDescriptor> {
    try {
      for await (const page of scanIndex(this.transport, this.dialect, {
        index: this.index,
        query: { match_all: {} },
        pageSize: this.settings.pageSize,
        source: this.fields ?? true,
        version: true,
        shards: this.shards,
        retry: this.settings.retry,
        signal,
      })) {
        for (const hit of page) {
          const descriptor = this.describe(hit);
          this.listed.set(descriptor, hit._source ?? {});
          yield descriptor;
        }
      }
    } catch (error) {
      throw this.failure(error, `listing the documents of index "${this.index}"`);
    }
  }

  async fetch(record: RecordDescriptor, signal?: AbortSignal): Promise<FetchedRecord> {
    const source = this.listed.get(record) ?? (await this.read(record, signal));
    this.listed.delete(record);
    return {
      descriptor: record,
      data: new TextEncoder().encode(documentText(source, this.fields)),
      filename: record.rel_path,
      content_type: 'text/plain',
    };
  }

  private async read(record: RecordDescriptor, signal?: AbortSignal): Promise<Record<string, unknown>> {
    const id = String(record.data_source.record_locator?.document_id ?? '');
    if (id === '') {
      throw new ConnectorError(
        this.type,
        'read',
        `${this.type}: ${record.display_name} names no document id`,
      );
    }
    try {
      const querystring = this.fields ? { _source_includes: this.fields.join(',') } : undefined;
      const { body } = await this.transport.request<{ _source?: Record<string, unknown> }>(
        { method: 'GET', path: indexPath(this.index, '_doc', id), ...(querystring ? { querystring } : {}) },
        { signal },
      );
      return body._source ?? {};
    } catch (error) {
      throw this.failure(error, `reading document "${id}" of index "${this.index}"`);
    }
  }

  private describe(hit: SearchHit): RecordDescriptor {
    const url = `${this.settings.baseUrl}${indexPath(this.index, '_doc', hit._id)}`;
    const version = String(hit._version ?? '');
    return {
      identifier: url,
      version,
      display_name: `${this.index}/${hit._id}`,
      rel_path: outputName(this.index, hit._id),
      data_source: {
        url,
        version,
        record_locator: {
          hosts: [...this.settings.hosts],
          index_name: this.index,
          document_id: hit._id,
        },
      },
    };
  }

  async close(): Promise<void> {
    await this.transport.close();
  }
}

/**
 * `<index>-<id>.txt`, the id percent-encoded so any id is one safe file name; ids too long for a file
 * name keep a readable start and a hash of the whole id.
 */
export function outputName(index: string, id: string): string {
  const encoded = encodeURIComponent(id);
  if (encoded.length <= 180) return `${index}-${encoded}.txt`;
  const hash = createHash('sha256').update(id).digest('hex').slice(0, 16);
  return `${index}-${encoded.slice(0, 120)}-${hash}.txt`;
}
