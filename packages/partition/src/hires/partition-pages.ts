import type { ElementDraft } from '../elements/element.js';
import { ServiceError } from '../errors.js';
import { layoutDocument } from '../layout/document.js';
import { getOcrEngine } from '../ocr/engines.js';
import { resolveOcrLanguages } from '../ocr/languages.js';
import type { PartitionOptions } from '../options/partition-options.js';
import type { PartitionLimits } from '../pipeline/limits.js';
import { type AnalysedPage, analysePage, type PageAnalysisSettings } from './analyse-page.js';
import { resolveLayoutAnalyser } from './layout-model.js';
import type { PageSource } from './source.js';

/**
 * The hi_res and ocr_only pipelines for PDFs and images: each page is loaded (rendered or decoded),
 * analysed into the shared layout input (analyse-page.ts), then turned into elements. Pages are handled
 * one at a time so memory stays flat; the PDF page pool may instead call `analyseSourcePage` per page in
 * its workers and `elementsFromPages` once with the results.
 */
export interface HiResContext {
  limits: PartitionLimits;
  signal?: AbortSignal | undefined;
  /** File extension of the input (pdf, png...), for skip_infer_table_types. */
  extension?: string | undefined;
}

export type PageMode = PageAnalysisSettings['mode'];

/** Resolve the engine, languages and layout analyser once per document (throws on bad options). */
export async function pageSettings(options: PartitionOptions, mode: PageMode): Promise<PageAnalysisSettings> {
  const languages = resolveOcrLanguages(options.ocr_agent, options.languages);
  const layout = mode === 'hi_res' ? await resolveLayoutAnalyser(options.hi_res_model_name) : undefined;
  return { mode, languages, layout, ocr: await getOcrEngine(options.ocr_agent) };
}

/** Load and analyse one page (0-based index), within the per-page time limit. */
export async function analyseSourcePage(
  source: PageSource,
  index: number,
  settings: PageAnalysisSettings,
  context: HiResContext,
): Promise<AnalysedPage> {
  if (context.signal?.aborted)
    throw new ServiceError('timeout', 'Partitioning was cancelled or ran out of time');
  const work = (async () => analysePage(await source.loadPage(index), index + 1, settings))();
  const limit = context.limits.pageTimeoutMs;
  if (!limit) return work;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new ServiceError('timeout', `Page ${index + 1} took longer than ${limit} ms`)),
      limit,
    );
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Elements of analysed pages, in page order, through the shared layout module (the same blocks,
 * reading order, classification, running headers and tables as the fast strategy; layout regions
 * decide the type of what they cover). A PageBreak follows every page; finalize drops them unless
 * include_page_breaks.
 */
export function elementsFromPages(
  pages: readonly AnalysedPage[],
  options: PartitionOptions,
  context: Pick<HiResContext, 'extension'> = {},
): ElementDraft[] {
  const tableStructure =
    options.pdf_infer_table_structure &&
    !options.skip_infer_table_types.some(
      (type) => type.toLowerCase().replace(/^\./, '') === context.extension,
    );
  const ocrEngine = pages.find((page) => page.ocrEngine)?.ocrEngine;
  return layoutDocument(pages, {
    tableStructure,
    textOrigin: 'pdfium',
    ...(ocrEngine ? { ocrOrigin: ocrEngine } : {}),
  });
}

async function partitionPages(
  source: PageSource,
  options: PartitionOptions,
  context: HiResContext,
  mode: PageMode,
): Promise<ElementDraft[]> {
  const settings = await pageSettings(options, mode);
  const pages: AnalysedPage[] = [];
  for (let index = 0; index < source.pageCount; index++) {
    pages.push(await analyseSourcePage(source, index, settings, context));
  }
  return elementsFromPages(pages, options, context);
}

/** ocr_only: OCR every page, then the shared classification. */
export function partitionPagesOcrOnly(
  source: PageSource,
  options: PartitionOptions,
  context: HiResContext,
): Promise<ElementDraft[]> {
  return partitionPages(source, options, context, 'ocr_only');
}

/** hi_res: text layer where usable, OCR elsewhere, layout analysis and table structure. */
export function partitionPagesHiRes(
  source: PageSource,
  options: PartitionOptions,
  context: HiResContext,
): Promise<ElementDraft[]> {
  return partitionPages(source, options, context, 'hi_res');
}
