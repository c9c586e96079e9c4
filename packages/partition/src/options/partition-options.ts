import { vlmOptionSet } from '../vlm/options.js';
import { defineOptions, field, type OptionsInput, type OptionsOutput } from './fields.js';

export const STRATEGIES = ['auto', 'fast', 'hi_res', 'ocr_only', 'vlm'] as const;
export type Strategy = (typeof STRATEGIES)[number];

/** OCR engines (src/ocr/); docs/ocr.md compares them. */
export const OCR_AGENTS = ['ppocr', 'tesseract'] as const;
export type OcrAgent = (typeof OCR_AGENTS)[number];

/**
 * Options of `partition()`: the same names in the library, the CLI (kebab-case) and the API form.
 * docs/options.md lists them; PDF/OCR-specific behaviour is described in docs/pdf.md.
 */
export const partitionOptionSet = defineOptions({
  strategy: field.enum(STRATEGIES, {
    default: 'auto',
    description:
      'How PDFs and images are read: fast (text layer), hi_res (text layer + OCR + layout analysis), ocr_only, vlm (vision-language model), or auto (chosen per document).',
  }),
  languages: field.stringList({
    description:
      'Languages of the document (ISO 639-3 like "eng", or 639-1 like "en"). Used by OCR; when absent, languages are detected for metadata.',
    aliases: ['ocr_languages'],
    placeholder: '<codes>',
  }),
  detect_language_per_element: field.boolean({
    default: false,
    description: 'Detect the language of each element instead of once per document.',
  }),
  encoding: field.string({
    description: 'Text encoding of text-based inputs (utf-8, utf-16, windows-1252...). Detected when absent.',
  }),
  content_type: field.string({
    description: 'MIME type of the input; overrides detection from the bytes and the file name.',
  }),
  gz_uncompressed_content_type: field.string({
    description: 'MIME type of the content of a gzip-compressed input.',
  }),
  coordinates: field.boolean({
    default: false,
    description: 'Add bounding-box coordinates to the metadata of elements of PDFs and images.',
  }),
  unique_element_ids: field.boolean({
    default: false,
    description: 'Use random UUIDs as element ids instead of the SHA-256 of the element text.',
  }),
  include_page_breaks: field.boolean({
    default: false,
    description: 'Emit a PageBreak element at each page boundary.',
  }),
  starting_page_number: field.integer({
    default: 1,
    min: 1,
    description: 'Page number given to the first page (for documents that are parts of a larger one).',
  }),
  xml_keep_tags: field.boolean({
    default: false,
    description: 'Return XML as one element that keeps its tags, instead of its text content.',
  }),
  include_slide_notes: field.boolean({
    default: true,
    description: 'Include speaker notes of presentations.',
  }),
  pdf_infer_table_structure: field.boolean({
    default: false,
    description:
      'Recover table structure (metadata.text_as_html) in PDFs and images; with strategy auto this selects hi_res.',
  }),
  skip_infer_table_types: field.stringList({
    default: [],
    description: 'File types (extensions such as pdf, jpg) for which table structure is not inferred.',
  }),
  hi_res_model_name: field.string({
    description:
      'Layout analyser used by hi_res: a built-in model name, or the path of an ONNX layout model file.',
  }),
  extract_image_block_types: field.stringList({
    default: [],
    description: 'Element types (Image, Table) whose image is added to metadata.image_base64.',
  }),
  split_pdf_page: field.boolean({
    default: false,
    description: 'Process the pages of a PDF in parallel batches.',
  }),
  split_pdf_concurrency_level: field.integer({
    default: 5,
    min: 1,
    max: 50,
    description: 'How many page batches are processed at once with split_pdf_page.',
  }),
  split_pdf_allow_failed: field.boolean({
    default: false,
    description: 'With split_pdf_page, leave out pages that fail instead of failing the document.',
  }),
  split_pdf_page_range: field.integerList({
    length: 2,
    description: 'First and last page (1-based, inclusive) to process, e.g. 3,7.',
  }),
  vlm_model_provider: field.string({
    description:
      'Provider of the vision-language model for strategy vlm (openai, anthropic, bedrock, vertexai...).',
  }),
  vlm_model: field.string({
    description: 'Vision-language model name for strategy vlm.',
  }),
  ocr_agent: field.enum(OCR_AGENTS, {
    default: 'ppocr',
    description:
      'OCR engine for hi_res and ocr_only: ppocr (PaddleOCR PP-OCRv4 via ONNX Runtime) or tesseract (tesseract.js). See docs/ocr.md.',
  }),
  pdf_render_dpi: field.integer({
    default: 200,
    min: 50,
    max: 600,
    description: 'Resolution at which PDF pages are rendered for OCR and layout analysis (hi_res, ocr_only).',
  }),
  // How to reach the vision-language model of strategy vlm (vlm/options.ts).
  ...vlmOptionSet.shape,
});

export type PartitionOptionsInput = OptionsInput<typeof partitionOptionSet.shape>;
export type PartitionOptions = OptionsOutput<typeof partitionOptionSet.shape>;
