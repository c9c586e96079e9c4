import { ServiceError } from '../../errors.js';
import type { PartitionOptions } from '../../options/partition-options.js';

/**
 * The pages to process: all of them, or `split_pdf_page_range` [first, last] (1-based, inclusive).
 * Returns 0-based indices. A range outside the document is an invalid option, named as such.
 */
export function selectedPages(
  options: Pick<PartitionOptions, 'split_pdf_page_range'>,
  pageCount: number,
): number[] {
  const range = options.split_pdf_page_range;
  if (!range) return Array.from({ length: pageCount }, (_, i) => i);
  const [first, last] = range as [number, number];
  if (first < 1 || last < first || last > pageCount) {
    throw new ServiceError(
      'invalid_option',
      `split_pdf_page_range ${first}-${last} is not within the document's pages 1-${pageCount}`,
      {
        details: [{ field: 'split_pdf_page_range', message: `must lie within 1-${pageCount}, first ≤ last` }],
      },
    );
  }
  return Array.from({ length: last - first + 1 }, (_, i) => first - 1 + i);
}

/** Split page indices into batches of about `size` pages for the worker pool. */
export function batches<T>(items: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let i = 0; i < items.length; i += size) result.push(items.slice(i, i + size));
  return result;
}
