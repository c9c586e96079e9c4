import { draft, type ElementDraft } from '../../elements/element.js';
import { ServiceError } from '../../errors.js';
import { partitionPagesHiRes, partitionPagesOcrOnly } from '../../hires/partition-pages.js';
import { imagePageSource } from '../../hires/source.js';
import type { PartitionOptions } from '../../options/partition-options.js';
import type { FormatPartitioner } from '../format.js';
import { type DecodedImageSource, openImage } from './decode.js';

/**
 * Images (png, jpg, tiff with every page, bmp, webp, gif, heif): decoded with sharp, then read by the
 * hi_res pipeline (auto means hi_res for images) or ocr_only. An image has no text layer, so the fast
 * strategy cannot apply. Strategy vlm sends each page to the vision-language model (src/vlm/).
 */
export const partition: FormatPartitioner = async ({ data, fileType, options, limits, signal }) => {
  const strategy = options.strategy;
  if (strategy === 'fast') {
    throw new ServiceError('strategy_not_available', 'The fast strategy is not available for image files');
  }
  const image = await openImage(data, limits.maxImagePixels);
  if (strategy === 'vlm') return partitionImageWithVlm(image, options, signal);
  const source = imagePageSource(image);
  const context = { limits, signal, extension: fileType.id };
  return strategy === 'ocr_only'
    ? partitionPagesOcrOnly(source, options, context)
    : partitionPagesHiRes(source, options, context);
};

/** Strategy vlm: each page, decoded (upright), goes to the vision-language model; its HTML → elements. */
async function partitionImageWithVlm(
  image: DecodedImageSource,
  options: PartitionOptions,
  signal: AbortSignal | undefined,
): Promise<ElementDraft[]> {
  const { createVlmClient } = await import('../../vlm/vlm-client.js');
  const client = createVlmClient(options);
  const drafts: ElementDraft[] = [];
  for (let index = 0; index < image.pageCount; index++) {
    if (signal?.aborted) throw new ServiceError('timeout', 'Partitioning was cancelled or ran out of time');
    const page = await image.page(index);
    drafts.push(
      ...(await client.pageToDrafts({ rgba: page.data, width: page.width, height: page.height }, index + 1)),
    );
    drafts.push(draft('PageBreak', '', { page_number: index + 1 }));
  }
  return drafts;
}
