import { randomUUID } from 'node:crypto';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { ElementDraft } from '../../elements/element.js';
import { ServiceError } from '../../errors.js';
import { classifyDocument } from '../../layout/document.js';
import type { PageLayout } from '../../layout/page.js';
import type { PartitionOptions } from '../../options/partition-options.js';
import type { PartitionLimits } from '../../pipeline/limits.js';
import { getPagePool, pagePoolSize } from '../../workers/page-pool.js';
import type { PdfPageResult, PdfPageTask } from '../../workers/pdf-page-worker.js';
import type { PdfDocument } from './engine.js';
import { type FastPageSettings, fastPage, outcomeError, type PageOutcome } from './fast-page.js';
import { batches } from './page-range.js';
import { compiledPdfiumModule } from './pdfium.js';

/**
 * The fast strategy: the text layer only, no rendering, no OCR. Pages are read one at a time, either
 * in the calling thread or in batches on the page-worker pool (split_pdf_page, or whenever a time limit
 * is set: only a worker can be stopped in the middle of a page). Then the document-wide layout pass
 * (layout/document.ts) types the items and adds a PageBreak after every page.
 */

export interface FastContext {
  data: Uint8Array;
  document: PdfDocument;
  pages: number[];
  options: PartitionOptions;
  limits: PartitionLimits;
  signal: AbortSignal | undefined;
  password?: string | undefined;
}

export async function partitionFast(context: FastContext): Promise<ElementDraft[]> {
  const settings: FastPageSettings = {
    imageData: context.options.extract_image_block_types.some((type) => type.toLowerCase() === 'image'),
    maxImagePixels: context.limits.maxImagePixels,
  };
  const usePool =
    context.options.split_pdf_page ||
    context.limits.pageTimeoutMs > 0 ||
    context.limits.documentTimeoutMs > 0;
  const deadline = context.limits.documentTimeoutMs > 0 ? Date.now() + context.limits.documentTimeoutMs : 0;
  const outcomes = usePool
    ? await pooledPages(context, settings, deadline)
    : await inThreadPages(context, settings, deadline);
  return assemble(outcomes, context.options);
}

function checkCancelled(signal: AbortSignal | undefined, deadline: number): void {
  if (signal?.aborted) throw new ServiceError('timeout', 'Partitioning was cancelled');
  if (deadline && Date.now() > deadline)
    throw new ServiceError('timeout', 'The document took longer than its time limit');
}

async function inThreadPages(
  context: FastContext,
  settings: FastPageSettings,
  deadline: number,
): Promise<PageOutcome[]> {
  const outcomes: PageOutcome[] = [];
  const pageLimit = context.limits.pageTimeoutMs;
  for (const index of context.pages) {
    checkCancelled(context.signal, deadline);
    const started = Date.now();
    let outcome = fastPage(context.document, index, settings);
    if (pageLimit && Date.now() - started > pageLimit && !('error' in outcome)) {
      outcome = { index, error: { code: 'timeout', message: `the page took longer than ${pageLimit} ms` } };
    }
    outcomes.push(outcome);
    // Let timers and I/O run between pages: a long document must not freeze a server's event loop.
    await yieldToEventLoop();
  }
  return outcomes;
}

async function pooledPages(
  context: FastContext,
  settings: FastPageSettings,
  deadline: number,
): Promise<PageOutcome[]> {
  const pool = getPagePool();
  const shared = new SharedArrayBuffer(context.data.length);
  new Uint8Array(shared).set(context.data);
  const wasm = await compiledPdfiumModule();
  const documentKey = randomUUID();
  const concurrency = Math.max(1, Math.min(context.options.split_pdf_concurrency_level, pagePoolSize() * 2));
  // Small batches balance the load and keep few results in flight; large ones save messages.
  const batchSize = Math.max(1, Math.min(16, Math.ceil(context.pages.length / (concurrency * 4))));
  const queue = batches(context.pages, batchSize);
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  context.signal?.addEventListener('abort', onAbort, { once: true });
  const timer = deadline ? setTimeout(onAbort, Math.max(0, deadline - Date.now())) : undefined;
  const results = new Map<number, PageOutcome>();

  const runBatch = async (pages: number[]): Promise<void> => {
    const task: PdfPageTask = {
      documentKey,
      data: shared,
      password: context.password,
      pages,
      settings,
      wasm,
    };
    const signals = [stop.signal];
    if (context.limits.pageTimeoutMs > 0)
      signals.push(AbortSignal.timeout(context.limits.pageTimeoutMs * pages.length));
    try {
      const result = (await pool.run(task, { signal: AbortSignal.any(signals) })) as PdfPageResult;
      for (const outcome of result.pages) results.set(outcome.index, outcome);
    } catch (error) {
      if (stop.signal.aborted) throw cancelledError(context.signal);
      if (pages.length > 1) {
        // Find the page that failed the batch (hung or crashed its worker): retry the pages one by one.
        for (const page of pages) await runBatch([page]);
        return;
      }
      const timedOut = error instanceof Error && /abort/i.test(error.name + error.message);
      results.set(pages[0]!, {
        index: pages[0]!,
        error: timedOut
          ? { code: 'timeout', message: `the page took longer than ${context.limits.pageTimeoutMs} ms` }
          : { code: 'corrupt_document', message: 'the page crashed the PDF engine' },
      });
    }
  };

  try {
    let next = 0;
    const lanes = Array.from({ length: Math.min(concurrency, queue.length) }, async () => {
      while (next < queue.length) {
        const batch = queue[next++]!;
        await runBatch(batch);
        if (!context.options.split_pdf_allow_failed) {
          const failed = batch
            .map((page) => results.get(page))
            .find((outcome) => outcome && 'error' in outcome);
          if (failed && 'error' in failed) {
            stop.abort();
            throw outcomeError(failed);
          }
        }
      }
    });
    await Promise.all(lanes);
  } catch (error) {
    stop.abort();
    throw error;
  } finally {
    if (timer) clearTimeout(timer);
    context.signal?.removeEventListener('abort', onAbort);
  }
  return context.pages.map((index) => results.get(index)!);
}

function cancelledError(signal: AbortSignal | undefined): ServiceError {
  return signal?.aborted
    ? new ServiceError('timeout', 'Partitioning was cancelled')
    : new ServiceError('timeout', 'The document took longer than its time limit');
}

/**
 * Page outcomes → drafts. Without split_pdf_allow_failed the first failed page fails the document with
 * that page's error; with it, failed pages are left out and their PageBreak says why.
 */
function assemble(outcomes: PageOutcome[], options: PartitionOptions): ElementDraft[] {
  const layouts: PageLayout[] = [];
  const failures = new Map<number, ServiceError>();
  for (const outcome of outcomes) {
    if ('error' in outcome) {
      const error = outcomeError(outcome);
      if (!options.split_pdf_allow_failed) throw error;
      failures.set(outcome.index + 1, error);
      process.emitWarning(`Page ${outcome.index + 1} was left out: ${outcome.error.message}`, {
        code: 'DOCSVC_PAGE_FAILED',
      });
      layouts.push({ pageNumber: outcome.index + 1, width: 0, height: 0, system: 'PointSpace', items: [] });
    } else {
      layouts.push(outcome.layout);
    }
  }
  if (outcomes.length > 0 && failures.size === outcomes.length) throw failures.values().next().value!;
  const drafts = classifyDocument(layouts, {
    tableStructure: !options.skip_infer_table_types.some(
      (type) => type.toLowerCase().replace(/^\./, '') === 'pdf',
    ),
    textOrigin: 'pdfium',
  });
  for (const element of drafts) {
    const failure =
      element.type === 'PageBreak' ? failures.get(element.metadata?.page_number ?? -1) : undefined;
    if (failure && element.metadata) {
      element.metadata.partition_error = { code: failure.code, message: failure.message };
    }
  }
  return drafts;
}
