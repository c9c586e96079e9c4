import type { SearchEngineDialect } from '../search-engine/dialect.js';
import { indexPath } from '../search-engine/transport.js';

export type KnnEngine = 'lucene' | 'faiss' | 'nmslib';

/**
 * engine_b specifics: SPEC 2.7's k-NN index (`index.knn: true`, `knn.algo_param.ef_search: 100`,
 * `knn_vector` with `dimension`) with an HNSW method on the chosen engine (Lucene by default: faiss and
 * nmslib need native libraries that many builds lack, and a mapping naming them fails at the first
 * refresh there), and the `_search/point_in_time` API.
 *
 * OpenSearch 2.x has no `_shard_doc` sort; `_doc` is unique only within a shard, so it is a total order
 * for single-shard indexes only; other indexes are scanned in `_id` order (as the reference did).
 */
export function engineBDialect(knnEngine: KnnEngine = 'lucene'): SearchEngineDialect {
  return {
    connector: 'engine_b',
    product: 'engine_b (OpenSearch-compatible)',
    vectorProperty: (dimension) => ({
      type: 'knn_vector',
      dimension,
      method: {
        name: 'hnsw',
        engine: knnEngine,
        space_type: 'cosinesimil',
        parameters: { m: 16, ef_construction: 100 },
      },
    }),
    indexSettings: () => ({ index: { knn: true, 'knn.algo_param.ef_search': 100 } }),
    async openPointInTime(transport, index, keepAlive, options) {
      const { body } = await transport.request<{ pit_id: string }>(
        {
          method: 'POST',
          path: indexPath(index, '_search', 'point_in_time'),
          querystring: { keep_alive: keepAlive },
        },
        options,
      );
      return body.pit_id;
    },
    async closePointInTime(transport, id) {
      await transport.request({ method: 'DELETE', path: '/_search/point_in_time', body: { pit_id: [id] } });
    },
    pointInTimeSort: (shards) => (shards === 1 ? [{ _doc: 'asc' }] : [{ _id: 'asc' }]),
  };
}
