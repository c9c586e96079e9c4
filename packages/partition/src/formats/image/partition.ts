import { ServiceError } from '../../errors.js';
import { partitionPagesHiRes, partitionPagesOcrOnly } from '../../hires/partition-pages.js';
import { imagePageSource } from '../../hires/source.js';
import type { FormatPartitioner } from '../format.js';
import { openImage } from './decode.js';

/**
 * Images (png, jpg, tiff with every page, bmp, webp, gif, heif): decoded with sharp, then read by the
 * hi_res pipeline (auto means hi_res for images) or ocr_only. An image has no text layer, so the fast
 * strategy cannot apply.
 */
export const partition: FormatPartitioner = async ({ data, fileType, options, limits, signal }) => {
  const strategy = options.strategy;
  if (strategy === 'fast') {
    throw new ServiceError('strategy_not_available', 'The fast strategy is not available for image files');
  }
  if (strategy === 'vlm') {
    throw new ServiceError('strategy_not_available', 'The vlm strategy is not available for image files yet');
  }
  const source = imagePageSource(await openImage(data, limits.maxImagePixels));
  const context = { limits, signal, extension: fileType.id };
  return strategy === 'ocr_only'
    ? partitionPagesOcrOnly(source, options, context)
    : partitionPagesHiRes(source, options, context);
};
