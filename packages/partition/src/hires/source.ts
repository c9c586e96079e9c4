import type { DecodedImageSource } from '../formats/image/decode.js';
import type { PageInput } from '../layout/types.js';
import type { RgbaImage } from '../ocr/types.js';

/**
 * What the hi_res and ocr_only pipelines read: pages that can be shown as pixels, and (for PDFs) their
 * text layer. One page is loaded at a time, so memory does not grow with the page count.
 */
export interface SourcePage {
  /** The page as pixels: rendered (PDF) or decoded (image). */
  image: RgbaImage;
  /** The PDF text layer in PointSpace (origin top-left); absent for images. */
  textLayer?: TextLayerPage | undefined;
}

/** The PDF engine's page content, as formats/pdf/engine.ts `readPage` returns it. */
export interface TextLayerPage extends PageInput {
  stats?: { chars: number; unmappedChars: number; invisibleChars: number };
}

export interface PageSource {
  readonly kind: 'pdf' | 'image';
  readonly pageCount: number;
  /** Load one page by 0-based index. */
  loadPage(index: number): Promise<SourcePage>;
}

/** The part of the PDF engine's document (formats/pdf/engine.ts PdfDocument) these pipelines use. */
export interface PdfPages {
  readonly pageCount: number;
  readPage(pageIndex: number): TextLayerPage;
  renderPage(pageIndex: number, dpi: number, options?: { maxPixels?: number }): RgbaImage;
}

export interface PdfSourceOptions {
  /** Render resolution (options.pdf_render_dpi). */
  dpi: number;
  /** limits.maxImagePixels. */
  maxPixels: number;
  /** Read the text layer too (hi_res); ocr_only does not need it. */
  textLayer: boolean;
}

export function pdfPageSource(document: PdfPages, options: PdfSourceOptions): PageSource {
  return {
    kind: 'pdf',
    pageCount: document.pageCount,
    async loadPage(index) {
      const image = document.renderPage(index, options.dpi, { maxPixels: options.maxPixels });
      return { image, textLayer: options.textLayer ? document.readPage(index) : undefined };
    },
  };
}

export function imagePageSource(image: DecodedImageSource): PageSource {
  return {
    kind: 'image',
    pageCount: image.pageCount,
    async loadPage(index) {
      return { image: await image.page(index) };
    },
  };
}
