/**
 * @docsvc/partition: the document model and everything that turns bytes into elements.
 */
export * from './chunking/index.js';
export { detectFileType } from './detect/detect.js';
export { FILE_TYPES, type FileTypeInfo, fileTypeByExtension, fileTypeByMime } from './detect/file-types.js';
export * from './elements/index.js';
export * from './embed/index.js';
export * from './enrich/index.js';
export {
  ERROR_STATUS,
  type ErrorCode,
  type FieldIssue,
  invalidOption,
  isServiceError,
  ServiceError,
  toServiceError,
} from './errors.js';
export type { FormatContext, FormatModule, FormatPartitioner, NestedInput } from './formats/format.js';
export { type HtmlToDraftsOptions, htmlToDrafts } from './formats/html/html-to-drafts.js';
export type { ImageResolver, ResolvedImage } from './formats/html/images.js';
export { findSoffice as findLibreOffice, LIBREOFFICE_PACKAGES } from './formats/legacy-office/convert.js';
export {
  type OpenPdfOptions,
  openPdf,
  type PdfDocument,
  type PdfPageContent,
  type ReadPageOptions,
  type RenderedPage,
  type TextLayerStats,
} from './formats/pdf/engine.js';
export { loadPartitioner, supportedFormatIds } from './formats/registry.js';
export { BUILTIN_LAYOUT_MODEL } from './hires/builtin-analyser.js';
export { classifyDocument, type LayoutDocumentOptions, layoutDocument } from './layout/document.js';
export { analysePage, type LayoutItem, type PageLayout } from './layout/page.js';
export type {
  Box,
  CoordinateSystemName,
  ImageRegion,
  LayoutLabel,
  LayoutRegion,
  PageInput,
  Rule,
  TextLine,
} from './layout/types.js';
export { closeOcrEngines, getOcrEngine } from './ocr/engines.js';
export { resolveOcrLanguages, supportedOcrLanguages } from './ocr/languages.js';
export type { OcrEngine, RgbaImage } from './ocr/types.js';
export * from './options/fields.js';
export * from './options/partition-options.js';
export type { DocumentInput, PartitionInput } from './pipeline/input.js';
export { DEFAULT_LIMITS, type PartitionLimits } from './pipeline/limits.js';
export { type PartitionRuntime, partition } from './pipeline/partition.js';
export {
  type DocumentOptionsInput,
  type DocumentRuntime,
  documentOptionSet,
  processDocument,
} from './pipeline/process.js';
export * from './providers/index.js';
export { decodeText } from './text/decode.js';
export { detectLanguages, toIso6393 } from './text/languages.js';
export { classifyText } from './text/text-type.js';
export * from './vlm/index.js';
export { closePagePool } from './workers/page-pool.js';
export { workerEntryUrl } from './workers/worker-entry.js';
