import type { TextLine } from '../layout/types.js';

/** A decoded page or picture: 8-bit RGBA pixels, row-major, origin at the top-left. */
export interface RgbaImage {
  data: Uint8Array;
  width: number;
  height: number;
}

/**
 * An OCR engine. `recognize` returns text lines in the image's pixel coordinates (origin top-left),
 * with `origin: 'ocr'`, a confidence in 0..1 and a font size estimated from the line height.
 * Engines are created lazily, once per thread, and reused across pages; `close` frees their resources.
 */
export interface OcrEngine {
  /** Engine name as recorded in metadata.detection_origin, e.g. "ppocr" or "tesseract". */
  readonly name: string;
  /** @param languages engine language codes, already checked by `resolveOcrLanguages`. */
  recognize(image: RgbaImage, languages: readonly string[]): Promise<TextLine[]>;
  close(): Promise<void>;
}
