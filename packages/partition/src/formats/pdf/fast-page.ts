import { isServiceError, ServiceError } from '../../errors.js';
import { analysePage, type PageLayout } from '../../layout/page.js';
import type { PdfDocument } from './engine.js';

/**
 * One page of the fast strategy: the text layer read by the engine, analysed by the shared layout
 * module. Runs in the calling thread or in a page worker; the result is plain data (structured-clone
 * safe) so workers can send it back.
 */

export interface FastPageSettings {
  /** Encode pictures as PNG (extract_image_block_types includes Image). */
  imageData: boolean;
  maxImagePixels: number;
}

export type PageOutcome =
  | { index: number; layout: PageLayout; textChars: number }
  | { index: number; error: { code: ServiceError['code']; message: string } };

export function fastPage(document: PdfDocument, index: number, settings: FastPageSettings): PageOutcome {
  try {
    const content = document.readPage(index, {
      imageData: settings.imageData,
      maxImagePixels: settings.maxImagePixels,
    });
    return { index, layout: analysePage(content), textChars: content.stats.chars };
  } catch (error) {
    return { index, error: describeError(error) };
  }
}

export function describeError(error: unknown): { code: ServiceError['code']; message: string } {
  if (isServiceError(error)) return { code: error.code, message: error.message };
  return { code: 'internal', message: error instanceof Error ? error.message : String(error) };
}

export function outcomeError(outcome: Extract<PageOutcome, { error: unknown }>): ServiceError {
  return new ServiceError(outcome.error.code, `Page ${outcome.index + 1}: ${outcome.error.message}`);
}
