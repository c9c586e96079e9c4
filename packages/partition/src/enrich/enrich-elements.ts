import type { Element } from '../elements/element.js';
import { mapWithConcurrency } from '../providers/concurrency.js';
import type { ProviderEnv } from '../providers/credentials.js';
import type { RetryPolicy } from '../providers/retry.js';
import { createLlmEntityExtractor } from './llm/llm-extractor.js';
import {
  type EntityExtractionOptions,
  type EntityExtractionOptionsInput,
  entityExtractionOptionSet,
} from './options.js';
import type { Entities, EntityExtractor } from './types.js';

export interface EnrichmentRuntime {
  /** Where provider keys may come from when not given as options. Default: process.env. */
  env?: ProviderEnv;
  fetch?: typeof fetch;
  retry?: Partial<RetryPolicy>;
}

/**
 * The enrichment step: with `entity_extraction` set, every element whose text is not blank gets
 * `metadata.entities = {items, relationships}` (empty lists when nothing was found). Elements with blank
 * text are left as they are. Returns new element objects; the input is not changed. Off when
 * `entity_extraction` is absent. An element whose extraction fails fails the step (typed error):
 * nothing invalid is ever stored.
 */
export async function enrichElements(
  elements: readonly Element[],
  input: EntityExtractionOptionsInput | EntityExtractionOptions,
  runtime: EnrichmentRuntime = {},
): Promise<Element[]> {
  const options = entityExtractionOptionSet.parse(input);
  if (!options.entity_extraction) return [...elements];
  const extractor = createEntityExtractor(options, runtime);
  // The local engine is CPU-bound: one element at a time. LLM calls wait on the network.
  const concurrency = options.entity_extraction === 'local' ? 1 : options.entity_extraction_max_concurrency;
  return mapWithConcurrency(elements, concurrency, async (element) => {
    if (element.text.trim() === '') return { ...element };
    const entities = await extractor.extract(element.text, element);
    return { ...element, metadata: { ...element.metadata, entities } };
  });
}

export function createEntityExtractor(
  options: EntityExtractionOptions,
  runtime: EnrichmentRuntime = {},
): EntityExtractor {
  if (options.entity_extraction === 'llm') {
    return createLlmEntityExtractor(options, {
      env: runtime.env ?? process.env,
      fetch: runtime.fetch,
      retry: runtime.retry,
    });
  }
  // The NLP libraries take a second or more to load: only when the local engine is used.
  let engine: Promise<(text: string) => Entities> | undefined;
  return {
    name: 'local',
    async extract(text) {
      engine ??= import('./local/local-extractor.js').then((module) => module.extractLocally);
      return (await engine)(text);
    },
  };
}
