/**
 * `npm run bench [suite-name...]`: run the benchmark suites and rewrite their sections of
 * docs/performance.md. Timings are medians of several runs; nothing here asserts a timing.
 */
import { replaceSection } from '../scripts/lib/doc-sections.js';
import { loadSuites } from './suites/index.js';

const wanted = process.argv.slice(2);
for (const suite of await loadSuites()) {
  if (wanted.length > 0 && !wanted.includes(suite.name)) continue;
  console.log(`# ${suite.title}`);
  const markdown = await suite.run();
  console.log(markdown);
  replaceSection('docs/performance.md', suite.name, markdown, suite.title);
}
