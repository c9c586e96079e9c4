import { ServiceError } from '../errors.js';

/**
 * A rendered page as the PDF/image dispatch has it: PNG bytes, or raw RGBA pixels (renderPage's output),
 * which are encoded here. Pages larger than MAX_SIDE pixels on their long side are scaled down first:
 * providers scale or refuse larger images anyway (OpenAI fits into 2048, Anthropic prefers ≤1568,
 * Bedrock caps bytes), and a smaller upload is faster.
 */
export type PageImage =
  | { png: Uint8Array; width: number; height: number }
  | { rgba: Uint8Array; width: number; height: number };

export const MAX_SIDE = 2048;

export async function pageImageToPng(image: PageImage): Promise<Uint8Array> {
  const { width, height } = image;
  if (!(width > 0 && height > 0))
    throw new ServiceError('internal', `Page image has no size (${width}×${height}).`);
  const tooBig = Math.max(width, height) > MAX_SIDE;
  if ('png' in image && !tooBig) return image.png;
  const { default: sharp } = await import('sharp');
  let pipeline =
    'png' in image
      ? sharp(image.png)
      : (() => {
          if (image.rgba.length !== width * height * 4) {
            throw new ServiceError(
              'internal',
              `RGBA buffer of ${image.rgba.length} bytes does not match ${width}×${height}.`,
            );
          }
          return sharp(image.rgba, { raw: { width, height, channels: 4 } });
        })();
  if (tooBig) pipeline = pipeline.resize({ width: MAX_SIDE, height: MAX_SIDE, fit: 'inside' });
  return new Uint8Array(await pipeline.png({ compressionLevel: 6 }).toBuffer());
}
