import { ServiceError } from '../../errors.js';
import type { Pdfium } from './pdfium.js';

/** A raster: 8-bit RGBA, row-major, origin top-left (the same shape as ocr/types.ts RgbaImage). */
export interface RenderedPage {
  data: Uint8Array;
  width: number;
  height: number;
}

/** FPDF_ANNOT: draw annotations and form fields as a viewer shows them. */
const RENDER_ANNOTATIONS = 0x01;
/** FPDF_REVERSE_BYTE_ORDER: PDFium writes RGBA instead of BGRA, so no conversion pass is needed. */
const RENDER_RGBA = 0x10;
/** FPDFBitmap_* formats. */
const FORMAT_GRAY = 1;
const FORMAT_BGR = 2;
const FORMAT_BGRX = 3;
const PNG_COMPRESSION = 6;

/**
 * Render a loaded page at `dpi` into a fresh RGBA buffer (white background). The wasm bitmap is freed
 * before returning; the caller owns the returned pixels.
 */
export function renderLoadedPage(
  pdfium: Pdfium,
  page: number,
  widthPoints: number,
  heightPoints: number,
  dpi: number,
  maxPixels: number,
): RenderedPage {
  if (!(dpi > 0 && dpi <= 2400))
    throw new ServiceError('invalid_option', `Render DPI ${dpi} is out of range`);
  const width = Math.max(1, Math.round((widthPoints * dpi) / 72));
  const height = Math.max(1, Math.round((heightPoints * dpi) / 72));
  if (width * height > maxPixels) {
    throw new ServiceError(
      'limit_exceeded',
      `Rendering the page at ${dpi} DPI needs ${width}×${height} pixels, more than the limit of ${maxPixels}`,
    );
  }
  const x = pdfium.exports;
  const bitmap = x.FPDFBitmap_Create(width, height, 1);
  if (!bitmap) throw new ServiceError('limit_exceeded', `Could not allocate a ${width}×${height} page image`);
  try {
    x.FPDFBitmap_FillRect(bitmap, 0, 0, width, height, 0xffffffff);
    x.FPDF_RenderPageBitmap(bitmap, page, 0, 0, width, height, 0, RENDER_ANNOTATIONS | RENDER_RGBA);
    const buffer = x.FPDFBitmap_GetBuffer(bitmap);
    const stride = x.FPDFBitmap_GetStride(bitmap);
    const data = new Uint8Array(width * height * 4);
    const heap = pdfium.heapU8();
    for (let row = 0; row < height; row++) {
      data.set(heap.subarray(buffer + row * stride, buffer + row * stride + width * 4), row * width * 4);
    }
    return { data, width, height };
  } finally {
    x.FPDFBitmap_Destroy(bitmap);
  }
}

/**
 * An image object as PNG bytes, rendered with its mask and colour space applied (what a reader sees).
 * Returns undefined for images PDFium cannot decode or larger than `maxPixels`.
 */
export function imageObjectToPng(
  pdfium: Pdfium,
  document: number,
  page: number,
  image: number,
  maxPixels: number,
): Uint8Array | undefined {
  const x = pdfium.exports;
  const scratch = x.malloc(16);
  try {
    if (x.FPDFImageObj_GetImagePixelSize(image, scratch, scratch + 4)) {
      const i32 = pdfium.heapI32();
      const pixels = (i32[scratch >> 2] ?? 0) * (i32[(scratch + 4) >> 2] ?? 0);
      if (pixels > maxPixels) return undefined;
    }
    const bitmap = x.FPDFImageObj_GetRenderedBitmap(document, page, image);
    if (!bitmap) return undefined;
    try {
      return encodeBitmapPng(pdfium, bitmap, scratch);
    } finally {
      x.FPDFBitmap_Destroy(bitmap);
    }
  } finally {
    x.free(scratch);
  }
}

/** PNG-encode a PDFium bitmap (gray, BGR, BGRx or BGRA) with the encoder built into @embedpdf/pdfium. */
function encodeBitmapPng(pdfium: Pdfium, bitmap: number, scratch: number): Uint8Array | undefined {
  const x = pdfium.exports;
  const width = x.FPDFBitmap_GetWidth(bitmap);
  const height = x.FPDFBitmap_GetHeight(bitmap);
  const format = x.FPDFBitmap_GetFormat(bitmap);
  const stride = x.FPDFBitmap_GetStride(bitmap);
  const source = x.FPDFBitmap_GetBuffer(bitmap);
  if (width <= 0 || height <= 0 || !source) return undefined;
  const rgba = x.malloc(width * height * 4);
  if (!rgba) return undefined;
  try {
    const heap = pdfium.heapU8();
    const channels = format === FORMAT_GRAY ? 1 : format === FORMAT_BGR ? 3 : 4;
    for (let row = 0; row < height; row++) {
      let from = source + row * stride;
      let to = rgba + row * width * 4;
      for (let column = 0; column < width; column++, from += channels, to += 4) {
        if (channels === 1) {
          heap[to] = heap[to + 1] = heap[to + 2] = heap[from]!;
          heap[to + 3] = 255;
        } else {
          heap[to] = heap[from + 2]!;
          heap[to + 1] = heap[from + 1]!;
          heap[to + 2] = heap[from]!;
          heap[to + 3] = format !== FORMAT_BGRX ? heap[from + 3]! : 255;
        }
      }
    }
    const size = x.EPDF_PNG_EncodeRGBA(rgba, width, height, width * 4, PNG_COMPRESSION, scratch + 8);
    const pointer = pdfium.heapI32()[(scratch + 8) >> 2] ?? 0;
    if (size <= 0 || !pointer) return undefined;
    try {
      return pdfium.heapU8().slice(pointer, pointer + size);
    } finally {
      x.free(pointer);
    }
  } finally {
    x.free(rgba);
  }
}
