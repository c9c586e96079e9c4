/**
 * `npm run eval`: partition every generated document of known structure, score it, print a table and
 * rewrite the results section of docs/quality.md. Optional argument: a substring of case names to run.
 */
import { elementsToText, partition } from '@docsvc/partition';
import { markdownTable, replaceSection } from '../scripts/lib/doc-sections.js';
import { loadCaseSources } from './cases/index.js';
import { cellScore, missingScore, orderScore, textScore, typeScore } from './metrics.js';

interface Row {
  name: string;
  format: string;
  text: number;
  missing: number;
  types: number;
  order: number;
  cells: number | undefined;
  error?: string;
}

const filter = process.argv[2];
const rows: Row[] = [];
for (const source of await loadCaseSources()) {
  for (const testCase of await source.cases()) {
    if (filter && !testCase.name.includes(filter)) continue;
    const expectedText = testCase.expected.map((e) => e.text).join('\n\n');
    try {
      const elements = await partition(
        { data: testCase.data, filename: testCase.filename },
        testCase.options,
      );
      const actualText = elementsToText(elements.filter((e) => e.type !== 'PageBreak'));
      rows.push({
        name: testCase.name,
        format: testCase.format,
        text: textScore(expectedText, actualText),
        missing: missingScore(expectedText, actualText),
        types: typeScore(testCase.expected, elements),
        order: orderScore(testCase.expected, elements),
        cells: cellScore(testCase.expected, elements),
      });
    } catch (error) {
      rows.push({
        name: testCase.name,
        format: testCase.format,
        text: 0,
        missing: 1,
        types: 0,
        order: 0,
        cells: 0,
        error: String(error),
      });
    }
  }
}

const fmt = (value: number | undefined) => (value === undefined ? '–' : value.toFixed(3));
const mean = (values: (number | undefined)[]) => {
  const defined = values.filter((v): v is number => v !== undefined);
  return defined.length === 0 ? undefined : defined.reduce((a, b) => a + b, 0) / defined.length;
};

const perCase = rows.map((r) => [
  r.name,
  fmt(r.text),
  fmt(r.missing),
  fmt(r.types),
  fmt(r.order),
  fmt(r.cells),
  r.error ? `error: ${r.error.slice(0, 80)}` : '',
]);
const formats = [...new Set(rows.map((r) => r.format))].sort();
const perFormat = formats.map((format) => {
  const group = rows.filter((r) => r.format === format);
  return [
    format,
    group.length,
    fmt(mean(group.map((r) => r.text))),
    fmt(mean(group.map((r) => r.missing))),
    fmt(mean(group.map((r) => r.types))),
    fmt(mean(group.map((r) => r.order))),
    fmt(mean(group.map((r) => r.cells))),
  ];
});

const summary = markdownTable(
  ['format', 'cases', 'text ↑', 'missing ↓', 'types ↑', 'order ↑', 'table cells ↑'],
  perFormat,
);
const detail = markdownTable(
  ['case', 'text ↑', 'missing ↓', 'types ↑', 'order ↑', 'table cells ↑', 'note'],
  perCase,
);
console.log(summary);
console.log();
console.log(detail);
if (!filter) {
  replaceSection(
    'docs/quality.md',
    'eval-results',
    `Measured by \`npm run eval\` on ${new Date().toISOString().slice(0, 10)} (${rows.length} generated documents).\n\n${summary}\n\n<details><summary>Per document</summary>\n\n${detail}\n\n</details>`,
    'Results',
  );
}
process.exitCode = rows.some((r) => r.error) ? 1 : 0;
