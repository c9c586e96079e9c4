import { type FieldIssue, invalidOption, ServiceError } from '../errors.js';
import { defineOptions, field, type OptionsInput, type OptionsOutput } from '../options/fields.js';

export const CHUNKING_STRATEGIES = ['basic', 'by_title', 'by_page', 'by_similarity'] as const;
export type ChunkingStrategyName = (typeof CHUNKING_STRATEGIES)[number];

/**
 * Options of `chunk()`: the same names in the library, the CLI (kebab-case) and the API form.
 * docs/chunking.md explains every rule; defaults that depend on other options (new_after_n_chars,
 * combine_text_under_n_chars) are left undefined here and resolved by `resolveChunkingOptions`.
 */
export const chunkingOptionSet = defineOptions({
  chunking_strategy: field.enum(CHUNKING_STRATEGIES, {
    description:
      'How elements are combined into chunks: basic, by_title, by_page or by_similarity. Absent: no chunking.',
  }),
  max_characters: field.integer({
    default: 500,
    min: 1,
    description: 'Hard limit: no chunk text is longer than this; longer elements are split.',
  }),
  new_after_n_chars: field.integer({
    min: 0,
    description:
      'Soft limit: a chunk that reached this length takes no further element. Default: max_characters.',
  }),
  overlap: field.integer({
    default: 0,
    min: 0,
    description:
      'Characters (whole words) repeated from the end of a split piece at the start of the next piece.',
  }),
  overlap_all: field.boolean({
    default: false,
    description: 'Also carry `overlap` characters between chunks made of whole elements, not only splits.',
  }),
  combine_text_under_n_chars: field.integer({
    min: 0,
    aliases: ['combine_under_n_chars'],
    description:
      'by_title: a section shorter than this is combined with the next one when both fit. Default: max_characters (capped at new_after_n_chars).',
  }),
  multipage_sections: field.boolean({
    default: true,
    description:
      'by_title: let a section continue across a page change. When false, a new page starts a chunk.',
  }),
  include_orig_elements: field.boolean({
    default: true,
    description:
      'Keep the elements each chunk was made from in metadata.orig_elements (base64 of gzipped JSON).',
  }),
  similarity_threshold: field.number({
    default: 0.5,
    min: 0.01,
    max: 0.99,
    description:
      'by_similarity: minimum cosine similarity between an element and its chunk for the element to join it.',
  }),
});

export type ChunkingOptionsInput = OptionsInput<typeof chunkingOptionSet.shape>;
export type ChunkingOptions = OptionsOutput<typeof chunkingOptionSet.shape>;

/**
 * The chunking options out of a larger options object (partition + chunking + embedding, as the CLI and
 * the API parse them with mergeOptionSets), for passing to `chunk()`, which rejects unknown names.
 */
export function pickChunkingOptions(options: Record<string, unknown>): ChunkingOptionsInput {
  const picked: Record<string, unknown> = {};
  for (const { name, spec } of chunkingOptionSet.fields) {
    for (const key of [name, ...(spec.aliases ?? [])]) {
      if (options[key] !== undefined) picked[key] = options[key];
    }
  }
  return picked as ChunkingOptionsInput;
}

/** Every number the chunkers need, derived once from the user's options. */
export interface ResolvedChunkingOptions {
  strategy: ChunkingStrategyName;
  /** max_characters: no chunk text is longer. */
  hardMax: number;
  /** new_after_n_chars: a chunk this long is closed. */
  softMax: number;
  /**
   * Length a chunk of whole elements may fill. Equal to hardMax, except with overlap_all, where room is
   * kept for the overlap prefix and its separator so that prefix + text still fits in hardMax.
   */
  fillLimit: number;
  overlap: number;
  overlapAll: boolean;
  /** by_title only; 0 elsewhere (no combining). */
  combineUnder: number;
  multipageSections: boolean;
  includeOrigElements: boolean;
  similarityThreshold: number;
}

/** Separator between the texts of the elements of one chunk (and between an overlap prefix and the text). */
export const ELEMENT_SEPARATOR = '\n\n';

/**
 * Validate options (field types and ranges, then the relations between fields) and derive the limits.
 * Returns undefined when no chunking_strategy is given: chunking is off.
 * Throws `invalid_option` whose details name every offending field.
 */
export function resolveChunkingOptions(input: unknown): ResolvedChunkingOptions | undefined {
  const options = chunkingOptionSet.parse(applyAliases(input));
  if (options.chunking_strategy === undefined) return undefined;
  const hardMax = options.max_characters;
  const issues: FieldIssue[] = [];
  if (options.new_after_n_chars !== undefined && options.new_after_n_chars > hardMax) {
    issues.push({
      field: 'new_after_n_chars',
      message: `must not exceed max_characters (${hardMax}), got ${options.new_after_n_chars}`,
    });
  }
  if (options.overlap >= hardMax) {
    issues.push({
      field: 'overlap',
      message: `must be less than max_characters (${hardMax}), got ${options.overlap}`,
    });
  }
  const combine = options.combine_text_under_n_chars;
  if (combine !== undefined && combine > hardMax) {
    issues.push({
      field: 'combine_text_under_n_chars',
      message: `must not exceed max_characters (${hardMax}), got ${combine}`,
    });
  }
  if (issues.length > 0) {
    const summary = issues.map((issue) => `${issue.field}: ${issue.message}`).join('; ');
    throw new ServiceError('invalid_option', `Invalid options: ${summary}`, { details: issues });
  }
  const softMax = options.new_after_n_chars ?? hardMax;
  const overlapAll = options.overlap_all && options.overlap > 0;
  // -- with overlap_all, keep room for "<overlap words>\n\n" in front of every chunk --
  const reserve = overlapAll ? options.overlap + ELEMENT_SEPARATOR.length : 0;
  return {
    strategy: options.chunking_strategy,
    hardMax,
    softMax,
    fillLimit: Math.max(1, hardMax - reserve),
    overlap: options.overlap,
    overlapAll,
    // -- the soft limit wins over a larger combine threshold, as in the reference library --
    combineUnder: options.chunking_strategy === 'by_title' ? Math.min(combine ?? hardMax, softMax) : 0,
    multipageSections: options.multipage_sections,
    includeOrigElements: options.include_orig_elements,
    similarityThreshold: options.similarity_threshold,
  };
}

/**
 * The library accepts the wire aliases too (`combine_under_n_chars`), like the CLI and the API form do.
 * Giving an option under two names with different values is an error rather than a silent choice.
 */
function applyAliases(input: unknown): unknown {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return input;
  const result: Record<string, unknown> = { ...(input as Record<string, unknown>) };
  for (const { name, spec } of chunkingOptionSet.fields) {
    for (const alias of spec.aliases ?? []) {
      if (!(alias in result)) continue;
      const value = result[alias];
      delete result[alias];
      if (value === undefined) continue;
      if (result[name] !== undefined && result[name] !== value) {
        const message = `given twice with different values (also as ${alias})`;
        throw invalidOption(name, message);
      }
      result[name] = value;
    }
  }
  return result;
}
