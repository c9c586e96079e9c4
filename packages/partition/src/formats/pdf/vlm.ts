import { draft, type ElementDraft } from '../../elements/element.js';
import { ServiceError, toServiceError } from '../../errors.js';
import type { FormatContext } from '../format.js';
import type { PdfDocument } from './engine.js';

/**
 * Strategy vlm for PDFs: each page is rendered (pdf_render_dpi) and sent to the vision-language model
 * (src/vlm/), whose HTML answer becomes elements. Pages are rendered one after another but up to
 * split_pdf_concurrency_level requests are in flight at once (the work is waiting on the provider).
 * A failed page fails the document unless split_pdf_allow_failed, which leaves it out and says so on
 * its PageBreak, as the fast strategy does.
 */
export async function partitionPdfWithVlm(
  context: FormatContext,
  document: PdfDocument,
  pages: number[],
): Promise<ElementDraft[]> {
  const { createVlmClient } = await import('../../vlm/vlm-client.js');
  const vlmOptions = Object.fromEntries(
    Object.entries(context.options).filter(([key]) => key.startsWith('vlm_')),
  );
  const client = createVlmClient(vlmOptions);
  const results: (ElementDraft[] | ServiceError)[] = new Array(pages.length);
  let next = 0;
  const lane = async () => {
    while (next < pages.length) {
      const position = next++;
      const index = pages[position]!;
      if (context.signal?.aborted) throw new ServiceError('timeout', 'Partitioning was cancelled');
      try {
        const image = document.renderPage(index, context.options.pdf_render_dpi, {
          maxPixels: context.limits.maxImagePixels,
        });
        results[position] = await client.pageToDrafts(
          { rgba: image.data, width: image.width, height: image.height },
          index + 1,
        );
      } catch (error) {
        const failure = toServiceError(error, 'provider_error');
        if (!context.options.split_pdf_allow_failed) throw failure;
        results[position] = failure;
      }
    }
  };
  const lanes = Math.max(1, Math.min(context.options.split_pdf_concurrency_level, pages.length));
  await Promise.all(Array.from({ length: lanes }, lane));
  const drafts: ElementDraft[] = [];
  results.forEach((result, position) => {
    const pageNumber = pages[position]! + 1;
    if (result instanceof ServiceError) {
      process.emitWarning(`Page ${pageNumber} was left out: ${result.message}`, {
        code: 'DOCSVC_PAGE_FAILED',
      });
      drafts.push(
        draft('PageBreak', '', {
          page_number: pageNumber,
          partition_error: { code: result.code, message: result.message },
        }),
      );
      return;
    }
    drafts.push(...result, draft('PageBreak', '', { page_number: pageNumber }));
  });
  return drafts;
}
