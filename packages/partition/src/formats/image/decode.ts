import sharp, { type Metadata } from 'sharp';
import { ServiceError } from '../../errors.js';
import type { RgbaImage } from '../../ocr/types.js';
import { bmpSize, decodeBmp, isBmp } from './bmp.js';

/**
 * Image decoding with sharp (libvips): png, jpeg, tiff (every page), webp, gif (first frame) and HEIF
 * coded with AV1; BMP with our own decoder (bmp.ts). Pixels come out as RGBA on white, turned upright by the EXIF orientation.
 *
 * HEIC photos are HEVC-coded; sharp's prebuilt libvips has no HEVC decoder (patent-encumbered, and the
 * available decoders, libde265/libheif, are LGPL, which this project does not ship), so they are refused
 * with a message saying so.
 */
export interface DecodedImageSource {
  /** Pages of a multi-page TIFF; 1 for everything else (animation frames are not pages). */
  pageCount: number;
  /** Decode one page (0-based). Each call decodes afresh, so only one page is in memory at a time. */
  page(index: number): Promise<RgbaImage>;
}

export async function openImage(data: Uint8Array, maxPixels: number): Promise<DecodedImageSource> {
  if (isBmp(data)) {
    const { width, height } = bmpSize(data);
    if (width * height > maxPixels) throw pixelLimit(width, height, maxPixels);
    return { pageCount: 1, page: async () => decodeBmp(data, maxPixels) };
  }
  const input = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  let metadata: Metadata;
  try {
    metadata = await sharp(input, { limitInputPixels: false }).metadata();
  } catch (error) {
    throw new ServiceError('corrupt_document', `The image could not be read: ${firstLine(error)}`, {
      cause: error,
    });
  }
  if (metadata.format === 'heif' && metadata.compression === 'hevc') {
    throw new ServiceError(
      'unsupported_file_type',
      'HEIC images coded with HEVC cannot be decoded: the bundled image library has no HEVC decoder (the available ones are LGPL-licensed and not shipped). Convert the image to JPEG or PNG first.',
    );
  }
  const width = metadata.width ?? 0;
  const height = metadata.height ?? 0;
  if (width <= 0 || height <= 0) throw new ServiceError('corrupt_document', 'The image has no pixels');
  if (width * height > maxPixels) throw pixelLimit(width, height, maxPixels);
  const pageCount = metadata.format === 'tiff' ? Math.max(1, metadata.pages ?? 1) : 1;
  return {
    pageCount,
    page: (index) => decodePage(input, index, maxPixels),
  };
}

async function decodePage(input: Buffer, index: number, maxPixels: number): Promise<RgbaImage> {
  try {
    // Pages of a TIFF may differ in size: check each against the cap before decoding it.
    const { data, info } = await sharp(input, { page: index, pages: 1, limitInputPixels: maxPixels })
      .autoOrient()
      .flatten({ background: '#ffffff' })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    return {
      data: new Uint8Array(data.buffer, data.byteOffset, data.length),
      width: info.width,
      height: info.height,
    };
  } catch (error) {
    if (/pixel limit/i.test(String(error))) {
      throw new ServiceError(
        'limit_exceeded',
        `Page ${index + 1} of the image has more than ${maxPixels} pixels`,
        {
          cause: error,
        },
      );
    }
    throw new ServiceError(
      'corrupt_document',
      `Page ${index + 1} of the image could not be decoded: ${firstLine(error)}`,
      {
        cause: error,
      },
    );
  }
}

function pixelLimit(width: number, height: number, maxPixels: number): ServiceError {
  return new ServiceError(
    'limit_exceeded',
    `The image has ${width}×${height} = ${width * height} pixels, more than the limit of ${maxPixels}`,
  );
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}
