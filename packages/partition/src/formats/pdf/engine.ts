import { ServiceError } from '../../errors.js';
import { glyphsToLines } from '../../layout/glyphs.js';
import type { ImageRegion, PageInput } from '../../layout/types.js';
import { readPageObjects } from './page-objects.js';
import { type PageSpace, pageSpace } from './page-space.js';
import { readGlyphs, type TextLayerStats } from './page-text.js';
import { discardPdfium, loadPdfium, PDFIUM_ERROR, type Pdfium, wasmApi } from './pdfium.js';
import { imageObjectToPng, type RenderedPage, renderLoadedPage } from './render.js';

/**
 * The PDF engine wrapper: open bytes, then read pages one at a time. Everything PDFium allocates for a
 * page (page, text page, bitmaps) is freed before the call returns, so memory does not grow with the
 * page count; only the document's bytes and PDFium's object cache stay while it is open.
 *
 * All boxes are in PDF points in display space: origin top-left, y down, page rotation applied.
 */

export type { TextLayerStats } from './page-text.js';
export type { RenderedPage } from './render.js';

/** One page as read from the text layer, ready for layout (layout/types.ts PageInput, PointSpace). */
export interface PdfPageContent extends PageInput {
  system: 'PointSpace';
  stats: TextLayerStats;
}

export interface ReadPageOptions {
  /** Encode each image region as PNG (`ImageRegion.data`); off by default because it costs time. */
  imageData?: boolean;
  /** Images with more pixels than this are reported without data. */
  maxImagePixels?: number;
}

export interface PdfDocument {
  readonly pageCount: number;
  /** Display size of a page in points (rotation applied). */
  pageSize(pageIndex: number): { width: number; height: number };
  /** Text lines, ruling lines and image regions of a page (0-based index). */
  readPage(pageIndex: number, options?: ReadPageOptions): PdfPageContent;
  /** Render a page to RGBA pixels at `dpi` (pixel = point × dpi / 72, same orientation as readPage). */
  renderPage(pageIndex: number, dpi: number, options?: { maxPixels?: number }): RenderedPage;
  /** Free the document and its copy of the bytes. Safe to call twice. */
  close(): void;
}

export interface OpenPdfOptions {
  password?: string | undefined;
}

const DEFAULT_MAX_PIXELS = 180_000_000;

/** Throws ServiceError: encrypted_document (password needed), corrupt_document (not a PDF, damaged). */
export async function openPdf(data: Uint8Array, options: OpenPdfOptions = {}): Promise<PdfDocument> {
  if (!hasPdfHeader(data)) {
    throw new ServiceError('corrupt_document', 'File does not appear to be a valid PDF (no %PDF header)');
  }
  const pdfium = await loadPdfium();
  return guard(() => new PdfiumDocument(pdfium, data, options.password), 'opening the PDF');
}

/** A PDF starts with "%PDF-" within its first 1024 bytes (readers tolerate leading junk up to there). */
export function hasPdfHeader(data: Uint8Array): boolean {
  const head = Buffer.from(data.buffer, data.byteOffset, Math.min(data.length, 1024)).toString('latin1');
  return head.includes('%PDF-');
}

class PdfiumDocument implements PdfDocument {
  readonly pageCount: number;
  private handle: number;
  private bytes: number;
  private readonly pdfium: Pdfium;

  constructor(pdfium: Pdfium, data: Uint8Array, password: string | undefined) {
    this.pdfium = pdfium;
    const x = pdfium.exports;
    this.bytes = x.malloc(Math.max(1, data.length));
    if (!this.bytes) throw new ServiceError('limit_exceeded', 'The PDF is too large to open');
    pdfium.heapU8().set(data, this.bytes);
    const passwordPointer = password ? writeCString(pdfium, password) : 0;
    try {
      this.handle = x.FPDF_LoadMemDocument(this.bytes, data.length, passwordPointer);
    } finally {
      if (passwordPointer) x.free(passwordPointer);
    }
    if (!this.handle) {
      const code = x.FPDF_GetLastError();
      x.free(this.bytes);
      this.bytes = 0;
      throw openError(code, Boolean(password));
    }
    this.pageCount = Math.max(0, x.FPDF_GetPageCount(this.handle));
  }

  pageSize(pageIndex: number): { width: number; height: number } {
    return this.withPage(pageIndex, (_page, space) => ({ width: space.width, height: space.height }));
  }

  readPage(pageIndex: number, options: ReadPageOptions = {}): PdfPageContent {
    return this.withPage(pageIndex, (page, space) => {
      const x = this.pdfium.exports;
      const objects = readPageObjects(this.pdfium, page, space);
      const textPage = x.FPDFText_LoadPage(page);
      let glyphs: ReturnType<typeof readGlyphs>;
      try {
        glyphs = textPage
          ? readGlyphs(this.pdfium, textPage, space)
          : { glyphs: [], stats: { chars: 0, unmappedChars: 0, invisibleChars: 0 } };
      } finally {
        if (textPage) x.FPDFText_ClosePage(textPage);
      }
      const images: ImageRegion[] = objects.images.map(({ handle, ...box }) => {
        const region: ImageRegion = clampBox(box, space);
        if (options.imageData) {
          const png = imageObjectToPng(
            this.pdfium,
            this.handle,
            page,
            handle,
            options.maxImagePixels ?? DEFAULT_MAX_PIXELS,
          );
          if (png) {
            region.data = png;
            region.mimeType = 'image/png';
          }
        }
        return region;
      });
      return {
        pageNumber: pageIndex + 1,
        width: space.width,
        height: space.height,
        system: 'PointSpace',
        // Text entirely outside the visible page (printer marks, cropped-away content) is dropped;
        // text crossing the edge is cut to it, so every box lies on the page.
        lines: glyphsToLines(glyphs.glyphs, objects.rules)
          .filter((line) => line.x1 > 0 && line.y1 > 0 && line.x0 < space.width && line.y0 < space.height)
          .map((line) => clampBox(line, space)),
        rules: objects.rules.map((rule) => clampBox(rule, space)),
        images: images.filter((image) => image.x1 - image.x0 > 0.5 && image.y1 - image.y0 > 0.5),
        stats: glyphs.stats,
      };
    });
  }

  renderPage(pageIndex: number, dpi: number, options: { maxPixels?: number } = {}): RenderedPage {
    return this.withPage(pageIndex, (page, space) =>
      renderLoadedPage(
        this.pdfium,
        page,
        space.width,
        space.height,
        dpi,
        options.maxPixels ?? DEFAULT_MAX_PIXELS,
      ),
    );
  }

  close(): void {
    if (this.handle) this.pdfium.exports.FPDF_CloseDocument(this.handle);
    if (this.bytes) this.pdfium.exports.free(this.bytes);
    this.handle = 0;
    this.bytes = 0;
  }

  /** Load a page, run `use`, and always close the page again. */
  private withPage<T>(pageIndex: number, use: (page: number, space: PageSpace) => T): T {
    if (!this.handle) throw new ServiceError('internal', 'The PDF document is already closed');
    if (!Number.isInteger(pageIndex) || pageIndex < 0 || pageIndex >= this.pageCount) {
      throw new ServiceError('invalid_option', `Page index ${pageIndex} is outside 0..${this.pageCount - 1}`);
    }
    return guard(
      () => {
        const x = this.pdfium.exports;
        const page = x.FPDF_LoadPage(this.handle, pageIndex);
        if (!page)
          throw new ServiceError('corrupt_document', `Page ${pageIndex + 1} of the PDF could not be read`);
        try {
          return use(page, readPageSpace(this.pdfium, page));
        } finally {
          x.FPDF_ClosePage(page);
        }
      },
      `reading page ${pageIndex + 1}`,
    );
  }
}

function readPageSpace(pdfium: Pdfium, page: number): PageSpace {
  const x = pdfium.exports;
  const rect = x.malloc(16);
  try {
    const turns = x.FPDFPage_GetRotation(page);
    if (x.FPDF_GetPageBoundingBox(page, rect)) {
      const f32 = pdfium.heapF32();
      const base = rect >> 2;
      // FS_RECTF: left, top, right, bottom.
      const box = { left: f32[base]!, top: f32[base + 1]!, right: f32[base + 2]!, bottom: f32[base + 3]! };
      if (box.right - box.left > 0 && Math.abs(box.top - box.bottom) > 0) return pageSpace(box, turns);
    }
    // No usable box: PDFium's own size with the origin at 0,0 (US Letter when even that is missing).
    const width = x.FPDF_GetPageWidthF(page) || 612;
    const height = x.FPDF_GetPageHeightF(page) || 792;
    const rotated = turns % 2 === 1;
    return pageSpace(
      { left: 0, bottom: 0, right: rotated ? height : width, top: rotated ? width : height },
      turns,
    );
  } finally {
    x.free(rect);
  }
}

/** Keep boxes on the page: content drawn outside the visible area is cut to it. */
function clampBox<T extends { x0: number; y0: number; x1: number; y1: number }>(box: T, space: PageSpace): T {
  return {
    ...box,
    x0: Math.max(0, Math.min(space.width, box.x0)),
    x1: Math.max(0, Math.min(space.width, box.x1)),
    y0: Math.max(0, Math.min(space.height, box.y0)),
    y1: Math.max(0, Math.min(space.height, box.y1)),
  };
}

function writeCString(pdfium: Pdfium, text: string): number {
  const bytes = Buffer.from(`${text}\0`, 'utf8');
  const pointer = pdfium.exports.malloc(bytes.length);
  pdfium.heapU8().set(bytes, pointer);
  return pointer;
}

function openError(code: number, passwordGiven: boolean): ServiceError {
  switch (code) {
    case PDFIUM_ERROR.PASSWORD:
      return new ServiceError(
        'encrypted_document',
        passwordGiven ? 'The PDF password is incorrect' : 'The PDF is encrypted and needs a password to open',
      );
    case PDFIUM_ERROR.SECURITY:
      return new ServiceError(
        'encrypted_document',
        'The PDF uses an unsupported encryption (security handler)',
      );
    case PDFIUM_ERROR.FORMAT:
    case PDFIUM_ERROR.FILE:
      return new ServiceError(
        'corrupt_document',
        'File does not appear to be a valid PDF, or it is damaged beyond repair',
      );
    default:
      return new ServiceError('corrupt_document', `The PDF could not be opened (PDFium error ${code})`);
  }
}

/**
 * A wasm trap (out-of-bounds access, abort, out of memory) inside PDFium means this input broke the
 * engine. The instance is discarded (its state may be damaged) and the input reported as corrupt.
 */
function guard<T>(run: () => T, what: string): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof ServiceError) throw error;
    if (error instanceof wasmApi.RuntimeError || /abort|Aborted|out of memory/i.test(String(error))) {
      discardPdfium();
      throw new ServiceError('corrupt_document', `The PDF engine failed while ${what}`, { cause: error });
    }
    throw error;
  }
}
