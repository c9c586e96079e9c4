import type { SearchEngineDialect } from '../search-engine/dialect.js';
import { indexPath } from '../search-engine/transport.js';

/**
 * engine_a specifics: SPEC 2.7's `dense_vector` (dims from the data, indexed, cosine similarity), no
 * index settings, and the `_pit` API whose `_shard_doc` sort is a total order on any number of shards.
 */
export const engineADialect: SearchEngineDialect = {
  connector: 'engine_a',
  product: 'engine_a (Elasticsearch-compatible)',
  vectorProperty: (dimension) => ({
    type: 'dense_vector',
    dims: dimension,
    index: true,
    similarity: 'cosine',
  }),
  indexSettings: () => undefined,
  async openPointInTime(transport, index, keepAlive, options) {
    const { body } = await transport.request<{ id: string }>(
      { method: 'POST', path: indexPath(index, '_pit'), querystring: { keep_alive: keepAlive } },
      options,
    );
    return body.id;
  },
  async closePointInTime(transport, id) {
    await transport.request({ method: 'DELETE', path: '/_pit', body: { id } });
  },
  pointInTimeSort: () => [{ _shard_doc: 'asc' }],
};
