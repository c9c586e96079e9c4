import { chunk } from '../chunking/chunk.js';
import { type ChunkingOptionsInput, chunkingOptionSet } from '../chunking/options.js';
import type { Element } from '../elements/element.js';
import { createEmbeddingProviderFromOptions, type EmbeddingRuntime } from '../embed/create.js';
import { embedElementsWith } from '../embed/embed-elements.js';
import { type EmbeddingOptionsInput, embeddingOptionSet } from '../embed/options.js';
import { type EnrichmentRuntime, enrichElements } from '../enrich/enrich-elements.js';
import { type EntityExtractionOptionsInput, entityExtractionOptionSet } from '../enrich/options.js';
import { combineOptionSets, pickOptions } from '../options/fields.js';
import { type PartitionOptionsInput, partitionOptionSet } from '../options/partition-options.js';
import type { PartitionInput } from './input.js';
import { type PartitionRuntime, partition } from './partition.js';

/**
 * Every option of the document pipeline (partition, chunking, embeddings, entity extraction) as one set:
 * what the API form, the `service-ingest` flags and `processDocument()` accept, under the same names.
 */
export const documentOptionSet = combineOptionSets(
  partitionOptionSet,
  chunkingOptionSet,
  embeddingOptionSet,
  entityExtractionOptionSet,
);

export type DocumentOptionsInput = PartitionOptionsInput &
  ChunkingOptionsInput &
  EmbeddingOptionsInput &
  EntityExtractionOptionsInput;

export type DocumentRuntime = PartitionRuntime & EmbeddingRuntime & EnrichmentRuntime;

/**
 * The document pipeline of SPEC 1.1: partition, then the optional steps chunk → embed → enrich, each
 * taken when its option is set (chunking_strategy, embedding_provider, entity_extraction). All options
 * are validated before any work, so a typo fails fast.
 */
export async function processDocument(
  input: PartitionInput,
  options: DocumentOptionsInput = {},
  runtime: DocumentRuntime = {},
): Promise<Element[]> {
  const all = documentOptionSet.parse(options) as Record<string, unknown>;
  const chunking = pickOptions(chunkingOptionSet, all) as ChunkingOptionsInput;
  const embedding = embeddingOptionSet.parse(pickOptions(embeddingOptionSet, all));
  const provider = embedding.embedding_provider
    ? createEmbeddingProviderFromOptions(embedding, runtime)
    : undefined;
  try {
    let elements = await partition(
      input,
      pickOptions(partitionOptionSet, all) as PartitionOptionsInput,
      runtime,
    );
    if (chunking.chunking_strategy) {
      elements = await chunk(elements, chunking, {
        embedder: provider,
        unique_element_ids: Boolean(all.unique_element_ids),
      });
    }
    if (provider) elements = await embedElementsWith(elements, provider);
    return await enrichElements(
      elements,
      pickOptions(entityExtractionOptionSet, all) as EntityExtractionOptionsInput,
      runtime,
    );
  } finally {
    await provider?.close?.();
  }
}
