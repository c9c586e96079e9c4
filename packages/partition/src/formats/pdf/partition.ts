import type { ElementDraft } from '../../elements/element.js';
import { ServiceError } from '../../errors.js';
import type { FormatContext, FormatPartitioner } from '../format.js';
import { openPdf, type PdfDocument } from './engine.js';
import { partitionFast } from './fast.js';
import { selectedPages } from './page-range.js';
import { chooseStrategy, judgeTextLayer } from './strategy.js';

/**
 * PDF: open with PDFium, pick the strategy (docs/pdf.md), partition the selected pages.
 * - fast: text layer + shared layout module (fast.ts), in this thread or on the page-worker pool;
 * - hi_res / ocr_only: the OCR pipelines of src/hires/ over pages rendered by this engine;
 * - vlm: the vision-language pipeline of src/vlm/ over rendered pages.
 * Bad input is a typed error: encrypted_document, corrupt_document (not a PDF, damaged beyond repair),
 * invalid_option (page range), timeout (time limits).
 */
export const partition: FormatPartitioner = async (context) => {
  const { options } = context;
  const document = await openPdf(context.data);
  try {
    if (document.pageCount === 0) {
      process.emitWarning('The PDF has no pages; it gives no elements', { code: 'DOCSVC_EMPTY_PDF' });
      return [];
    }
    const pages = selectedPages(options, document.pageCount);
    const strategy = chooseStrategy(options.strategy, options, () => judgeTextLayer(document, pages));
    switch (strategy) {
      case 'fast':
        return await partitionFast({ ...context, document, pages });
      case 'hi_res':
      case 'ocr_only':
        return await partitionWithOcr(context, document, pages, strategy);
      case 'vlm':
        return await partitionWithVlm(context, document, pages);
    }
  } finally {
    document.close();
  }
};

/** The parts of src/hires/ this module calls (loaded lazily: OCR models are heavy). */
interface HiResModules {
  source: {
    pdfPageSource(
      document: PdfDocument,
      options: { dpi: number; maxPixels: number; textLayer: boolean },
    ): { pageCount: number; kind: 'pdf' | 'image'; loadPage(index: number): Promise<unknown> };
  };
  pipeline: {
    partitionPagesHiRes(source: unknown, options: unknown, context: unknown): Promise<ElementDraft[]>;
    partitionPagesOcrOnly(source: unknown, options: unknown, context: unknown): Promise<ElementDraft[]>;
  };
}

async function loadOptional<T>(specifier: string, strategy: string): Promise<T> {
  try {
    return (await import(specifier)) as T;
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_MODULE_NOT_FOUND') {
      throw new ServiceError(
        'strategy_not_available',
        `Strategy ${strategy} is not available in this build`,
        {
          cause: error,
        },
      );
    }
    throw error;
  }
}

async function partitionWithOcr(
  context: FormatContext,
  document: PdfDocument,
  pages: number[],
  strategy: 'hi_res' | 'ocr_only',
): Promise<ElementDraft[]> {
  // The specifiers are computed so that this module builds before the OCR pipelines exist.
  const base = '../../hires/';
  const modules: HiResModules = {
    source: await loadOptional(`${base}source.js`, strategy),
    pipeline: await loadOptional(`${base}partition-pages.js`, strategy),
  };
  const whole = modules.source.pdfPageSource(document, {
    dpi: context.options.pdf_render_dpi,
    maxPixels: context.limits.maxImagePixels,
    textLayer: strategy === 'hi_res',
  });
  // The pipelines number pages from the start of the source they get: a page range is a sub-source
  // whose page numbers are shifted back afterwards.
  const first = pages[0] ?? 0;
  const source = {
    kind: whole.kind,
    pageCount: pages.length,
    loadPage: (index: number) => whole.loadPage(first + index),
  };
  const hiResContext = { limits: context.limits, signal: context.signal, extension: 'pdf' };
  const run =
    strategy === 'hi_res' ? modules.pipeline.partitionPagesHiRes : modules.pipeline.partitionPagesOcrOnly;
  const drafts = await run(source, context.options, hiResContext);
  if (first > 0) {
    for (const element of drafts) {
      if (element.metadata?.page_number !== undefined) element.metadata.page_number += first;
    }
  }
  return drafts;
}

async function partitionWithVlm(
  context: FormatContext,
  document: PdfDocument,
  pages: number[],
): Promise<ElementDraft[]> {
  const vlm = await loadOptional<{
    partitionPdfWithVlm?: (
      context: FormatContext,
      document: PdfDocument,
      pages: number[],
    ) => Promise<ElementDraft[]>;
  }>('../../vlm/partition.js', 'vlm');
  if (!vlm.partitionPdfWithVlm) {
    throw new ServiceError('strategy_not_available', 'Strategy vlm is not available in this build');
  }
  return vlm.partitionPdfWithVlm(context, document, pages);
}
