import { combineOptionSets, defineOptions, documentOptionSet, field } from '@docsvc/partition';

/** How the partition endpoint answers (not part of partitioning itself). */
export const responseOptions = defineOptions({
  output_format: field.enum(['application/json', 'text/csv'], {
    default: 'application/json',
    description: 'Format of the response: a JSON array of elements, or CSV (one row per element).',
  }),
});

/**
 * Every form field the partition endpoint reads: the library's document options (partition, chunking,
 * embeddings, entity extraction) under their own names, plus the response options. Unknown fields are ignored (clients send their own extras).
 */
export const partitionFormOptions = combineOptionSets(documentOptionSet, responseOptions);
