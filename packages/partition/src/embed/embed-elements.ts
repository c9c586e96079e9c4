import type { Element } from '../elements/element.js';
import { createEmbeddingProviderFromOptions, type EmbeddingRuntime } from './create.js';
import { type EmbeddingOptions, type EmbeddingOptionsInput, embeddingOptionSet } from './options.js';
import type { EmbeddingProvider } from './provider.js';

/**
 * The embedding step: every element whose text is not blank gets `embeddings` (one vector, computed from
 * its text); elements with blank text are returned without the key, as unstructured-ingest does
 * (destinations that require a vector drop them). Returns new element objects; the input is not changed.
 * With no `embedding_provider` the step is off and the elements come back as they are.
 */
export async function embedElements(
  elements: readonly Element[],
  input: EmbeddingOptionsInput | EmbeddingOptions,
  runtime: EmbeddingRuntime = {},
): Promise<Element[]> {
  const options = embeddingOptionSet.parse(input);
  if (!options.embedding_provider) return [...elements];
  const provider = createEmbeddingProviderFromOptions(options, runtime);
  try {
    return await embedElementsWith(elements, provider);
  } finally {
    await provider.close();
  }
}

/** The same step with a provider the caller built (and reuses across documents). */
export async function embedElementsWith(
  elements: readonly Element[],
  provider: EmbeddingProvider,
): Promise<Element[]> {
  const positions: number[] = [];
  const texts: string[] = [];
  elements.forEach((element, index) => {
    if (element.text.trim() === '') return;
    positions.push(index);
    texts.push(element.text);
  });
  const vectors = await provider.embed(texts);
  const result = elements.map((element) => ({ ...element }));
  positions.forEach((position, i) => {
    result[position]!.embeddings = vectors[i]!;
  });
  return result;
}
