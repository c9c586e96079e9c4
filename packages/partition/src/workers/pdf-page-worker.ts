import { openPdf, type PdfDocument } from '../formats/pdf/engine.js';
import { type FastPageSettings, fastPage, type PageOutcome } from '../formats/pdf/fast-page.js';
import { type CompiledWasm, setPdfiumModule } from '../formats/pdf/pdfium.js';

/**
 * Page worker: partitions a batch of pages of one PDF with the fast strategy. The PDF bytes arrive as a
 * SharedArrayBuffer (shared by all tasks of a document, never copied per task); the opened document is
 * kept for the next batch of the same document and closed when another document arrives.
 */

export interface PdfPageTask {
  /** Identifies the document across tasks (the opened copy is reused while it matches). */
  documentKey: string;
  data: SharedArrayBuffer;
  password?: string | undefined;
  pages: number[];
  settings: FastPageSettings;
  /** The compiled PDFium module from the main thread, so workers do not compile it again. */
  wasm?: CompiledWasm;
}

export interface PdfPageResult {
  pages: PageOutcome[];
}

let open: { key: string; document: PdfDocument } | undefined;

export default async function runPdfPageTask(task: PdfPageTask): Promise<PdfPageResult> {
  if (task.wasm) setPdfiumModule(task.wasm);
  if (open?.key !== task.documentKey) {
    open?.document.close();
    open = undefined;
    const document = await openPdf(new Uint8Array(task.data), { password: task.password });
    open = { key: task.documentKey, document };
  }
  const document = open.document;
  return { pages: task.pages.map((index) => fastPage(document, index, task.settings)) };
}
