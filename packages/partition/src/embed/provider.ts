import { mapWithConcurrency } from '../providers/concurrency.js';
import { ProviderError } from '../providers/errors.js';
import { type RetryPolicy, withRetries } from '../providers/retry.js';

/**
 * The one interface every embedding provider satisfies. It is also the chunker's `TextEmbedder`
 * (`embed(texts) → vectors`), so by_similarity chunking can use any provider.
 */
export interface EmbeddingProvider {
  /** `embedding_provider` value (openai, local...). */
  readonly name: string;
  /** Model (or deployment) name. */
  readonly model: string;
  /** One vector per text, in order. Batching, concurrency and retries happen inside. */
  embed(texts: string[]): Promise<number[][]>;
  /** Length of every vector this provider returns (may cost one request when the model is unknown). */
  dimension(): Promise<number>;
  /** Release resources (local model sessions). Safe to call more than once. */
  close(): Promise<void>;
}

/**
 * What a provider module implements: one request's worth of texts, no batching or retries.
 * A backend throws ProviderError for provider failures (retryable ones are retried by the wrapper).
 */
export interface EmbeddingBackend {
  readonly provider: string;
  readonly model: string;
  /** The provider's own limit on texts per request. */
  readonly maxBatchSize: number;
  /** Upper bound on requests in flight (1 for CPU-bound local models). */
  readonly maxConcurrency?: number;
  /** Vector length known without a request (from the option, the model table or the model files). */
  readonly knownDimension?: number | undefined;
  /**
   * Batch texts of similar length together (results still come back in input order). Local models pad
   * every text of a batch to the longest one, so this halves their work on mixed-length input.
   */
  readonly sortByLength?: boolean;
  embedBatch(texts: string[]): Promise<number[][]>;
  close?(): Promise<void>;
}

export interface BatchingSettings {
  batchSize: number;
  concurrency: number;
  retry: RetryPolicy;
  /** `embedding_dimensions`: the length every vector must have. */
  requestedDimension?: number | undefined;
}

/** Wrap a backend with batching, bounded concurrency, retries and a check of every vector. */
export function createEmbeddingProvider(
  backend: EmbeddingBackend,
  settings: BatchingSettings,
): EmbeddingProvider {
  const batchSize = Math.max(1, Math.min(settings.batchSize, backend.maxBatchSize));
  const concurrency = Math.max(
    1,
    Math.min(settings.concurrency, backend.maxConcurrency ?? Number.POSITIVE_INFINITY),
  );
  let expected: { length: number; source: string } | undefined =
    settings.requestedDimension !== undefined
      ? { length: settings.requestedDimension, source: 'embedding_dimensions' }
      : backend.knownDimension !== undefined
        ? { length: backend.knownDimension, source: `the size of model ${backend.model}` }
        : undefined;

  /** `positions[k]` = index in the caller's list of the k-th text sent; messages cite the caller's index. */
  const check = (vectors: unknown, batch: readonly string[], positions: readonly number[]): number[][] => {
    if (!Array.isArray(vectors) || vectors.length !== batch.length) {
      const got = Array.isArray(vectors) ? `${vectors.length} vectors` : 'no vector list';
      throw new ProviderError(
        backend.provider,
        `returned ${got} for ${batch.length} texts (model ${backend.model})`,
      );
    }
    vectors.forEach((vector, index) => {
      if (!Array.isArray(vector) || vector.length === 0 || !vector.every((x) => Number.isFinite(x))) {
        throw new ProviderError(
          backend.provider,
          `returned an invalid vector for text ${positions[index]} (model ${backend.model}): expected a list of numbers`,
        );
      }
      expected ??= { length: vector.length, source: 'the first vector of this run' };
      if (vector.length !== expected.length) {
        throw new ProviderError(
          backend.provider,
          `dimension mismatch: model ${backend.model} returned a vector of ${vector.length} numbers for text ${positions[index]}; expected ${expected.length} (from ${expected.source}). Check embedding_model_name and embedding_dimensions.`,
        );
      }
    });
    return vectors as number[][];
  };

  const embed = async (texts: string[]): Promise<number[][]> => {
    if (texts.length === 0) return [];
    const order = texts.map((_, index) => index);
    if (backend.sortByLength) order.sort((a, b) => texts[a]!.length - texts[b]!.length);
    const batches: { texts: string[]; positions: number[] }[] = [];
    for (let start = 0; start < order.length; start += batchSize) {
      const positions = order.slice(start, start + batchSize);
      batches.push({ texts: positions.map((position) => texts[position]!), positions });
    }
    const results = await mapWithConcurrency(batches, concurrency, async (batch) => {
      const vectors = await withRetries(() => backend.embedBatch(batch.texts), settings.retry);
      return check(vectors, batch.texts, batch.positions);
    });
    const vectors = new Array<number[]>(texts.length);
    results.forEach((batchVectors, b) => {
      batchVectors.forEach((vector, i) => {
        vectors[batches[b]!.positions[i]!] = vector;
      });
    });
    return vectors;
  };

  let closed = false;
  return {
    name: backend.provider,
    model: backend.model,
    embed,
    async dimension() {
      if (expected) return expected.length;
      // As unstructured-ingest does: embed one short text to learn the size.
      const [vector] = await embed(['Q']);
      return vector!.length;
    },
    async close() {
      if (closed) return;
      closed = true;
      await backend.close?.();
    },
  };
}
