import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { init, type WrappedPdfiumModule } from '@embedpdf/pdfium';

/**
 * The PDFium WebAssembly module (@embedpdf/pdfium), loaded once per thread. docs/pdf.md explains why
 * PDFium was chosen over pdf.js (measured: faster text, per-character boxes and font data, vector
 * paths, and a renderer without a native canvas).
 *
 * Hot per-character calls go straight to the wasm exports: the package's `cwrap` wrappers check their
 * arguments on every call, which doubled the time of text extraction on dense pages.
 */

/** The raw C functions this module uses. Every pointer and handle is a number (wasm32 address). */
export interface PdfiumExports {
  malloc(size: number): number;
  free(pointer: number): void;
  FPDF_LoadMemDocument(data: number, size: number, password: number): number;
  FPDF_CloseDocument(document: number): void;
  FPDF_GetLastError(): number;
  FPDF_GetPageCount(document: number): number;
  FPDF_LoadPage(document: number, index: number): number;
  FPDF_ClosePage(page: number): void;
  FPDF_GetPageWidthF(page: number): number;
  FPDF_GetPageHeightF(page: number): number;
  FPDF_GetPageBoundingBox(page: number, rect: number): number;
  FPDFPage_GetRotation(page: number): number;
  FPDFText_LoadPage(page: number): number;
  FPDFText_ClosePage(textPage: number): void;
  FPDFText_CountChars(textPage: number): number;
  FPDFText_GetUnicode(textPage: number, index: number): number;
  FPDFText_IsGenerated(textPage: number, index: number): number;
  FPDFText_HasUnicodeMapError(textPage: number, index: number): number;
  FPDFText_GetCharBox(
    textPage: number,
    index: number,
    left: number,
    right: number,
    bottom: number,
    top: number,
  ): number;
  FPDFText_GetLooseCharBox(textPage: number, index: number, rect: number): number;
  FPDFText_GetCharAngle(textPage: number, index: number): number;
  FPDFText_GetFontSize(textPage: number, index: number): number;
  FPDFText_GetMatrix(textPage: number, index: number, matrix: number): number;
  FPDFText_GetFontWeight(textPage: number, index: number): number;
  FPDFText_GetFontInfo(
    textPage: number,
    index: number,
    buffer: number,
    length: number,
    flags: number,
  ): number;
  FPDFText_GetTextObject(textPage: number, index: number): number;
  FPDFTextObj_GetTextRenderMode(textObject: number): number;
  FPDFPage_CountObjects(page: number): number;
  FPDFPage_GetObject(page: number, index: number): number;
  FPDFPageObj_GetType(object: number): number;
  FPDFPageObj_GetBounds(object: number, left: number, bottom: number, right: number, top: number): number;
  FPDFPageObj_GetMatrix(object: number, matrix: number): number;
  FPDFFormObj_CountObjects(formObject: number): number;
  FPDFFormObj_GetObject(formObject: number, index: number): number;
  FPDFPath_CountSegments(path: number): number;
  FPDFPath_GetPathSegment(path: number, index: number): number;
  FPDFPath_GetDrawMode(path: number, fillMode: number, stroke: number): number;
  FPDFPathSegment_GetPoint(segment: number, x: number, y: number): number;
  FPDFPathSegment_GetType(segment: number): number;
  FPDFPathSegment_GetClose(segment: number): number;
  FPDFImageObj_GetRenderedBitmap(document: number, page: number, image: number): number;
  FPDFImageObj_GetImagePixelSize(image: number, width: number, height: number): number;
  FPDFBitmap_Create(width: number, height: number, alpha: number): number;
  FPDFBitmap_Destroy(bitmap: number): void;
  FPDFBitmap_FillRect(
    bitmap: number,
    left: number,
    top: number,
    width: number,
    height: number,
    color: number,
  ): number;
  FPDFBitmap_GetBuffer(bitmap: number): number;
  FPDFBitmap_GetStride(bitmap: number): number;
  FPDFBitmap_GetWidth(bitmap: number): number;
  FPDFBitmap_GetHeight(bitmap: number): number;
  FPDFBitmap_GetFormat(bitmap: number): number;
  FPDF_RenderPageBitmap(
    bitmap: number,
    page: number,
    startX: number,
    startY: number,
    width: number,
    height: number,
    rotate: number,
    flags: number,
  ): void;
  EPDF_PNG_EncodeRGBA(
    rgba: number,
    width: number,
    height: number,
    stride: number,
    level: number,
    out: number,
  ): number;
}

/** One loaded PDFium instance: its exports and views of its memory (re-read after every call that may grow it). */
export interface Pdfium {
  exports: PdfiumExports;
  heapU8(): Uint8Array;
  heapF64(): Float64Array;
  heapF32(): Float32Array;
  heapI32(): Int32Array;
  /** Copy `length` UTF-16 code units starting at `pointer` into a string. */
  utf16(pointer: number): string;
}

/** FPDF_GetLastError codes (fpdfview.h). */
export const PDFIUM_ERROR = { SUCCESS: 0, UNKNOWN: 1, FILE: 2, FORMAT: 3, PASSWORD: 4, SECURITY: 5, PAGE: 6 };

/**
 * The parts of the WebAssembly JS API used here (the project's `lib` setting does not declare them).
 * A compiled module is an opaque handle that can be posted to worker threads.
 */
export type CompiledWasm = object;
interface WasmApi {
  compile(bytes: Uint8Array): Promise<CompiledWasm>;
  instantiate(module: CompiledWasm, imports: object): Promise<object>;
  RuntimeError: new (...args: unknown[]) => Error;
}
export const wasmApi = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

let loading: Promise<Pdfium> | undefined;
let wasmModule: Promise<CompiledWasm> | undefined;

/** Compile the wasm file once per process; threads share the compiled module through `setPdfiumModule`. */
export function compiledPdfiumModule(): Promise<CompiledWasm> {
  wasmModule ??= (async () => {
    const require = createRequire(import.meta.url);
    const bytes = await readFile(require.resolve('@embedpdf/pdfium/pdfium.wasm'));
    return wasmApi.compile(bytes);
  })();
  return wasmModule;
}

/** A worker thread receives the compiled module from the main thread instead of compiling it again. */
export function setPdfiumModule(module: CompiledWasm): void {
  wasmModule ??= Promise.resolve(module);
}

/** The thread's PDFium instance, created on first use. */
export function loadPdfium(): Promise<Pdfium> {
  loading ??= createPdfium().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

/**
 * Forget the instance after a wasm trap (out of memory, abort): its memory may be inconsistent, so the
 * next document gets a fresh one. The old instance is garbage-collected with its memory.
 */
export function discardPdfium(): void {
  loading = undefined;
}

async function createPdfium(): Promise<Pdfium> {
  const compiled = await compiledPdfiumModule();
  const wrapped: WrappedPdfiumModule = await init({
    instantiateWasm(imports: object, receive: (instance: object, module: CompiledWasm) => void) {
      wasmApi.instantiate(compiled, imports).then((instance) => receive(instance, compiled));
      return {};
    },
    // Emscripten prints aborts and warnings on its own; errors reach us as exceptions instead.
    print: () => {},
    printErr: () => {},
  } as unknown as Parameters<typeof init>[0]);
  wrapped.PDFiumExt_Init();
  const module = wrapped.pdfium as unknown as {
    wasmExports: PdfiumExports;
    HEAPU8: Uint8Array;
    HEAPF64: Float64Array;
    HEAPF32: Float32Array;
    HEAP32: Int32Array;
    UTF16ToString(pointer: number): string;
  };
  return {
    exports: module.wasmExports,
    heapU8: () => module.HEAPU8,
    heapF64: () => module.HEAPF64,
    heapF32: () => module.HEAPF32,
    heapI32: () => module.HEAP32,
    utf16: (pointer) => module.UTF16ToString(pointer),
  };
}
