import type { BenchSuite } from '../lib.js';

/** Every benchmark suite; add a new module's import here. Run one with `npm run bench -- <name>`. */
export async function loadSuites(): Promise<BenchSuite[]> {
  const modules = await Promise.all([
    import('./formats.js'),
    import('./ocr.js'),
    import('./chunking.js'),
    import('./embed-enrich.js'),
    import('./server.js'),
    import('./office.js'),
    import('./pdf.js'),
    import('./vector-db.js'),
    import('./connectors.js'),
    import('./ingest.js'),
  ]);
  return modules.map((module) => module.suite);
}
