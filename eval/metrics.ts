import type { Element } from '@docsvc/partition';
import { distance } from 'fastest-levenshtein';
import { parseDocument } from 'htmlparser2';
import type { ExpectedElement } from './types.js';

/**
 * Extraction-quality metrics, each in [0, 1] (1 = perfect). The definitions follow the usual ones for
 * document partitioners (see ../shared/reference/partition-quality.md §1.4), re-implemented here:
 * - text: 1 − edit distance / expected length, after whitespace and quote normalisation;
 * - missing: share of expected words (bag of words) absent from the output;
 * - types: matched (type, text) pairs, half credit for the right text under another type;
 * - order: 1 − normalised Kendall distance between expected and found positions of matched elements;
 * - cells: share of expected table cells found at the same row and column.
 */

const DOUBLE_QUOTES = /[\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb\u275d\u275e\u301d\u301e\uff02]/g;
const SINGLE_QUOTES = /[\u2018\u2019\u201a\u201b\u2032\u2039\u203a\u275b\u275c\uff07]/g;

export function normaliseText(text: string): string {
  return text.replace(DOUBLE_QUOTES, '"').replace(SINGLE_QUOTES, "'").split(/\s+/).filter(Boolean).join(' ');
}

/** Whole-document text similarity (elements joined in order). */
export function textScore(expected: string, actual: string): number {
  const a = normaliseText(expected);
  const b = normaliseText(actual);
  if (a.length === 0) return b.length === 0 ? 1 : 0;
  return Math.max(0, 1 - distance(a, b) / a.length);
}

function bagOfWords(text: string): Map<string, number> {
  const bag = new Map<string, number>();
  for (const word of text
    .toLowerCase()
    .replace(/(?![-'])\p{P}/gu, ' ')
    .split(/\s+/)) {
    if (word.length < 2) continue;
    bag.set(word, (bag.get(word) ?? 0) + 1);
  }
  return bag;
}

/** Share of expected words missing from the output (0 = nothing missing). */
export function missingScore(expected: string, actual: string): number {
  const want = bagOfWords(expected);
  const have = bagOfWords(actual);
  let total = 0;
  let missing = 0;
  for (const [word, count] of want) {
    total += count;
    missing += Math.max(0, count - (have.get(word) ?? 0));
  }
  return total === 0 ? 0 : missing / total;
}

function similar(a: string, b: string): number {
  const x = normaliseText(a);
  const y = normaliseText(b);
  const longest = Math.max(x.length, y.length);
  return longest === 0 ? 1 : 1 - distance(x, y) / longest;
}

/** Greedy one-to-one matching of expected to actual elements by text similarity (≥ 0.8). */
export function matchElements(
  expected: readonly ExpectedElement[],
  actual: readonly Element[],
): [number, number][] {
  const used = new Set<number>();
  const pairs: [number, number][] = [];
  expected.forEach((want, i) => {
    let best = -1;
    let bestScore = 0.8;
    actual.forEach((have, j) => {
      if (used.has(j)) return;
      const score = similar(want.text, have.text);
      if (score > bestScore || (score === bestScore && best === -1 && score >= 0.8)) {
        best = j;
        bestScore = score;
      }
    });
    if (best >= 0) {
      used.add(best);
      pairs.push([i, best]);
    }
  });
  return pairs;
}

export function typeScore(expected: readonly ExpectedElement[], actual: readonly Element[]): number {
  if (expected.length === 0) return actual.length === 0 ? 1 : 0;
  const pairs = matchElements(expected, actual);
  let credit = 0;
  for (const [i, j] of pairs) credit += expected[i]!.type === actual[j]!.type ? 1 : 0.5;
  return credit / expected.length;
}

/** Kendall-tau based order agreement over matched elements. */
export function orderScore(expected: readonly ExpectedElement[], actual: readonly Element[]): number {
  const pairs = matchElements(expected, actual).sort((a, b) => a[0] - b[0]);
  const positions = pairs.map(([, j]) => j);
  if (positions.length < 2) return positions.length === expected.length ? 1 : 0;
  let discordant = 0;
  let total = 0;
  for (let a = 0; a < positions.length; a++) {
    for (let b = a + 1; b < positions.length; b++) {
      total++;
      if (positions[a]! > positions[b]!) discordant++;
    }
  }
  const coverage = positions.length / expected.length;
  return (1 - discordant / total) * coverage;
}

/** Parse `text_as_html` into rows of cell texts (colspan repeated, rowspan carried down). */
export function htmlTableCells(html: string): string[][] {
  const document = parseDocument(html);
  const rows: string[][] = [];
  const carried: { text: string; remaining: number }[][] = [];
  const textOf = (node: unknown): string => {
    const n = node as { type: string; data?: string; children?: unknown[] };
    if (n.type === 'text') return n.data ?? '';
    return (n.children ?? []).map(textOf).join('');
  };
  const visit = (node: unknown): void => {
    const n = node as { name?: string; attribs?: Record<string, string>; children?: unknown[] };
    if (n.name === 'tr') {
      const row: string[] = [];
      const carry = carried[rows.length] ?? [];
      let column = 0;
      const fillCarried = () => {
        while (carry[column]) {
          row.push(carry[column]!.text);
          column++;
        }
      };
      for (const cell of n.children ?? []) {
        const c = cell as { name?: string; attribs?: Record<string, string> };
        if (c.name !== 'td' && c.name !== 'th') continue;
        fillCarried();
        const text = normaliseText(textOf(cell));
        const colspan = Number(c.attribs?.colspan ?? 1) || 1;
        const rowspan = Number(c.attribs?.rowspan ?? 1) || 1;
        for (let k = 0; k < colspan; k++) {
          row.push(text);
          for (let r = 1; r < rowspan; r++) {
            carried[rows.length + r] ??= [];
            carried[rows.length + r]![column] = { text, remaining: rowspan - r };
          }
          column++;
        }
      }
      fillCarried();
      rows.push(row);
      return;
    }
    for (const child of n.children ?? []) visit(child);
  };
  visit(document);
  return rows;
}

/** Share of expected cells found with the same text at the same (row, column) in the best-matching table. */
export function cellScore(
  expected: readonly ExpectedElement[],
  actual: readonly Element[],
): number | undefined {
  const wantTables = expected.filter((e) => e.cells);
  if (wantTables.length === 0) return undefined;
  const haveTables = actual
    .filter((e) => e.metadata.text_as_html)
    .map((e) => htmlTableCells(e.metadata.text_as_html as string));
  let found = 0;
  let total = 0;
  for (const want of wantTables) {
    const cells = want.cells!;
    const count = cells.reduce((sum, row) => sum + row.length, 0);
    total += count;
    let best = 0;
    for (const have of haveTables) {
      let hits = 0;
      for (const [r, row] of cells.entries()) {
        for (const [c, cell] of row.entries()) {
          if (normaliseText(have[r]?.[c] ?? '') === normaliseText(cell)) hits++;
        }
      }
      best = Math.max(best, hits);
    }
    found += best;
  }
  return total === 0 ? 1 : found / total;
}
