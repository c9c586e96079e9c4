import { ServiceError } from '../../errors.js';
import type { RgbaImage } from '../../ocr/types.js';

/**
 * A BMP decoder: sharp's prebuilt libvips reads BMP only through ImageMagick, which it does not bundle.
 * Covers what scanners and paint programs write: 1/4/8-bit palettes, 16-bit (5-5-5 or bit fields),
 * 24-bit, and 32-bit (with or without bit fields and alpha), bottom-up or top-down. RLE-compressed files
 * are refused with a typed error.
 */

const BI_RGB = 0;
const BI_BITFIELDS = 3;
const BI_ALPHABITFIELDS = 6;

export function isBmp(data: Uint8Array): boolean {
  return data.length > 26 && data[0] === 0x42 && data[1] === 0x4d;
}

export function bmpSize(data: Uint8Array): { width: number; height: number } {
  const header = readHeader(data);
  return { width: header.width, height: header.height };
}

interface Header {
  width: number;
  height: number;
  topDown: boolean;
  bits: number;
  compression: number;
  pixelOffset: number;
  paletteOffset: number;
  paletteEntrySize: number;
  paletteCount: number;
  masks: [number, number, number, number] | undefined;
}

function readHeader(data: Uint8Array): Header {
  const corrupt = (what: string) => new ServiceError('corrupt_document', `The BMP image is damaged: ${what}`);
  if (!isBmp(data)) throw corrupt('no BM signature');
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const pixelOffset = view.getUint32(10, true);
  const headerSize = view.getUint32(14, true);
  if (headerSize === 12) {
    // OS/2 BITMAPCOREHEADER: 16-bit sizes, 3-byte palette entries.
    const bits = view.getUint16(24, true);
    return {
      width: view.getUint16(18, true),
      height: view.getUint16(20, true),
      topDown: false,
      bits,
      compression: BI_RGB,
      pixelOffset,
      paletteOffset: 26,
      paletteEntrySize: 3,
      paletteCount: bits <= 8 ? 1 << bits : 0,
      masks: undefined,
    };
  }
  if (headerSize < 40 || data.length < 14 + headerSize) throw corrupt('unknown header');
  const rawHeight = view.getInt32(22, true);
  const bits = view.getUint16(28, true);
  const compression = view.getUint32(30, true);
  const colorsUsed = view.getUint32(46, true);
  let masks: Header['masks'];
  if (compression === BI_BITFIELDS || compression === BI_ALPHABITFIELDS) {
    // Masks follow a 40-byte header, or sit inside the V4/V5 header at the same place.
    const at = 54;
    if (data.length < at + 12) throw corrupt('missing colour masks');
    masks = [
      view.getUint32(at, true),
      view.getUint32(at + 4, true),
      view.getUint32(at + 8, true),
      headerSize >= 56 || compression === BI_ALPHABITFIELDS ? view.getUint32(at + 12, true) : 0,
    ];
  }
  const masksInline =
    compression === BI_BITFIELDS && headerSize === 40
      ? 12
      : compression === BI_ALPHABITFIELDS && headerSize === 40
        ? 16
        : 0;
  return {
    width: view.getInt32(18, true),
    height: Math.abs(rawHeight),
    topDown: rawHeight < 0,
    bits,
    compression,
    pixelOffset,
    paletteOffset: 14 + headerSize + masksInline,
    paletteEntrySize: 4,
    paletteCount: bits <= 8 ? colorsUsed || 1 << bits : 0,
    masks,
  };
}

/** Decode to RGBA; checks the pixel count against `maxPixels` before allocating anything. */
export function decodeBmp(data: Uint8Array, maxPixels: number): RgbaImage {
  const header = readHeader(data);
  const { width, height, bits } = header;
  if (width <= 0 || height <= 0) throw new ServiceError('corrupt_document', 'The BMP image has no pixels');
  if (width * height > maxPixels) {
    throw new ServiceError(
      'limit_exceeded',
      `The image has ${width}×${height} = ${width * height} pixels, more than the limit of ${maxPixels}`,
    );
  }
  if (![BI_RGB, BI_BITFIELDS, BI_ALPHABITFIELDS].includes(header.compression)) {
    throw new ServiceError(
      'unsupported_file_type',
      'RLE-compressed BMP images are not supported; convert the image to PNG first',
    );
  }
  if (![1, 4, 8, 16, 24, 32].includes(bits))
    throw new ServiceError('corrupt_document', `The BMP image has an invalid bit depth ${bits}`);
  const rowSize = Math.ceil((width * bits) / 32) * 4;
  if (header.pixelOffset + rowSize * height > data.length)
    throw new ServiceError('corrupt_document', 'The BMP image is truncated');
  const palette = readPalette(data, header);
  const masks =
    header.masks ??
    (bits === 16 ? [0x7c00, 0x03e0, 0x001f, 0] : bits === 32 ? [0xff0000, 0xff00, 0xff, 0] : undefined);
  const channels = masks?.map(maskShape);
  const out = new Uint8Array(width * height * 4);
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  for (let y = 0; y < height; y++) {
    const row = header.pixelOffset + (header.topDown ? y : height - 1 - y) * rowSize;
    for (let x = 0; x < width; x++) {
      const target = (y * width + x) * 4;
      if (bits <= 8) {
        const bitOffset = x * bits;
        const byte = data[row + (bitOffset >> 3)]!;
        const index = (byte >> (8 - bits - (bitOffset & 7))) & ((1 << bits) - 1);
        out.set(palette[index] ?? [0, 0, 0], target);
        out[target + 3] = 255;
      } else if (bits === 24) {
        out[target] = data[row + x * 3 + 2]!;
        out[target + 1] = data[row + x * 3 + 1]!;
        out[target + 2] = data[row + x * 3]!;
        out[target + 3] = 255;
      } else {
        const value = bits === 16 ? view.getUint16(row + x * 2, true) : view.getUint32(row + x * 4, true);
        for (let c = 0; c < 3; c++) out[target + c] = extract(value, channels![c]!);
        out[target + 3] = channels![3]!.bits > 0 ? extract(value, channels![3]!) : 255;
      }
    }
  }
  return { data: out, width, height };
}

function readPalette(data: Uint8Array, header: Header): [number, number, number][] {
  const palette: [number, number, number][] = [];
  for (let i = 0; i < header.paletteCount; i++) {
    const at = header.paletteOffset + i * header.paletteEntrySize;
    if (at + 3 > data.length) break;
    palette.push([data[at + 2]!, data[at + 1]!, data[at]!]);
  }
  return palette;
}

function maskShape(mask: number): { shift: number; bits: number } {
  if (mask === 0) return { shift: 0, bits: 0 };
  let shift = 0;
  while (((mask >>> shift) & 1) === 0) shift++;
  let bits = 0;
  while (((mask >>> (shift + bits)) & 1) === 1) bits++;
  return { shift, bits };
}

/** A masked channel scaled to 0..255. */
function extract(value: number, channel: { shift: number; bits: number }): number {
  if (channel.bits === 0) return 0;
  const max = 2 ** channel.bits - 1;
  return Math.round((((value >>> channel.shift) & max) * 255) / max);
}
