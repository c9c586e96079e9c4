import { ELEMENT_SEPARATOR, type ResolvedChunkingOptions } from './options.js';
import {
  buildPreChunks,
  changesPage,
  limitsOf,
  mergeTextPreChunks,
  type PreChunk,
  type TextPreChunk,
} from './pre-chunk.js';
import type { ChunkingStrategy } from './strategy.js';

/**
 * by_title: a section starts at every Title (and, with multipage_sections false, at every page change);
 * a chunk never holds text of two sections, except that consecutive small sections are combined: while the
 * chunk being built is shorter than combine_text_under_n_chars and the next section fits in it whole.
 */
export const byTitleStrategy: ChunkingStrategy = {
  overlapAcrossPages: true,
  preChunk(elements, options) {
    const sections = buildPreChunks(
      elements,
      limitsOf(options),
      (element, _index, current) =>
        element.type === 'Title' || (!options.multipageSections && changesPage(element, current)),
    );
    return combineSmallSections(sections, options);
  },
};

export function combineSmallSections(
  preChunks: readonly PreChunk[],
  options: ResolvedChunkingOptions,
): PreChunk[] {
  const combined: PreChunk[] = [];
  for (const preChunk of preChunks) {
    const last = combined[combined.length - 1];
    if (last?.kind === 'text' && preChunk.kind === 'text' && canCombine(last, preChunk, options)) {
      combined[combined.length - 1] = mergeTextPreChunks(last, preChunk);
    } else {
      combined.push(preChunk);
    }
  }
  return combined;
}

function canCombine(first: TextPreChunk, second: TextPreChunk, options: ResolvedChunkingOptions): boolean {
  if (first.length >= options.combineUnder) return false;
  if (first.length + ELEMENT_SEPARATOR.length + second.length > options.fillLimit) return false;
  const pagesDiffer = first.page !== undefined && second.page !== undefined && first.page !== second.page;
  return options.multipageSections || !pagesDiffer;
}
