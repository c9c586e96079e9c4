import type { ElementDraft } from '../../elements/element.js';
import type { FormatContext, FormatPartitioner } from '../format.js';
import { openPdf, type PdfDocument } from './engine.js';
import { partitionFast } from './fast.js';
import { selectedPages } from './page-range.js';
import { chooseStrategy, judgeTextLayer } from './strategy.js';
import { partitionPdfWithVlm } from './vlm.js';

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
        return await partitionPdfWithVlm(context, document, pages);
    }
  } finally {
    document.close();
  }
};

async function partitionWithOcr(
  context: FormatContext,
  document: PdfDocument,
  pages: number[],
  strategy: 'hi_res' | 'ocr_only',
): Promise<ElementDraft[]> {
  // Loaded on demand: the OCR pipelines bring ONNX Runtime and models.
  const [{ pdfPageSource }, { partitionPagesHiRes, partitionPagesOcrOnly }] = await Promise.all([
    import('../../hires/source.js'),
    import('../../hires/partition-pages.js'),
  ]);
  const whole = pdfPageSource(document, {
    dpi: context.options.pdf_render_dpi,
    maxPixels: context.limits.maxImagePixels,
    textLayer: strategy === 'hi_res',
  });
  // The pipelines number pages from the start of the source they get: a page range is a sub-source
  // whose page numbers are shifted back afterwards.
  const first = pages[0] ?? 0;
  const source = {
    ...whole,
    pageCount: pages.length,
    loadPage: (index: number) => whole.loadPage(first + index),
  };
  const hiResContext = { limits: context.limits, signal: context.signal, extension: 'pdf' };
  const drafts =
    strategy === 'hi_res'
      ? await partitionPagesHiRes(source, context.options, hiResContext)
      : await partitionPagesOcrOnly(source, context.options, hiResContext);
  if (first > 0) {
    for (const element of drafts) {
      if (element.metadata?.page_number !== undefined) element.metadata.page_number += first;
    }
  }
  return drafts;
}
