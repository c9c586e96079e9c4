import type { CaseSource } from '../types.js';

/**
 * Every group of evaluation cases. Each module under eval/cases/ generates its documents with
 * libraries (docx, xlsx, pdf...) from a known structure; add a new module's import here.
 */
export async function loadCaseSources(): Promise<CaseSource[]> {
  const modules = await Promise.all([
    import('./text.js'),
    import('./office.js'),
    import('./pdf.js'),
    import('./scans.js'),
    import('./markup.js'),
    import('./data-mail.js'),
  ]);
  return modules.map((module) => module.source);
}
