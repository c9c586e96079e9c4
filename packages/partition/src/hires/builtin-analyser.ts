import type { Box, LayoutRegion, Rule, TextLine } from '../layout/types.js';
import { groupRows, height, median, overlapShare, union } from './rows.js';

/**
 * The built-in layout analyser, "docsvc-layout-v1": rule-based, no model. It finds
 * - ruled tables: groups of long horizontal rules close together (with vertical rules or at least three
 *   horizontal ones) that enclose text;
 * - unruled tables: three or more consecutive rows of short text segments that line up in columns.
 * Everything else is left to the shared text classification (titles, lists, headers by position).
 */
export const BUILTIN_LAYOUT_MODEL = 'docsvc-layout-v1';

/** Rules further apart than this many text line heights belong to different tables. */
const MAX_RULE_GAP_LINES = 4;
/** A segment gap wider than this many line heights separates table columns. */
const COLUMN_GAP_LINES = 1.5;
/** Table cells are short; two-column prose has long lines. */
const MAX_WORDS_PER_CELL = 5;

export function analyseLayout(page: {
  width: number;
  height: number;
  lines: readonly TextLine[];
  rules: readonly Rule[];
}): LayoutRegion[] {
  const lineHeight = median(page.lines.map(height)) || page.height / 60;
  const ruled = ruledTables(page.lines, page.rules, lineHeight);
  const taken = (box: Box) => ruled.some((table) => overlapShare(box, table) > 0.5);
  const unruled = unruledTables(
    page.lines.filter((line) => !taken(line)),
    lineHeight,
  );
  return [...ruled, ...unruled].map((box) => ({ ...box, label: 'Table' as const, probability: 1 }));
}

function ruledTables(lines: readonly TextLine[], rules: readonly Rule[], lineHeight: number): Box[] {
  const horizontals = rules.filter((r) => r.x1 - r.x0 > r.y1 - r.y0).sort((a, b) => a.y0 - b.y0);
  const verticals = rules.filter((r) => r.y1 - r.y0 > r.x1 - r.x0);
  const groups: Rule[][] = [];
  for (const rule of horizontals) {
    const group = groups.find((g) => {
      const last = g.at(-1)!;
      const overlap = Math.min(last.x1, rule.x1) - Math.max(last.x0, rule.x0);
      const shorter = Math.min(last.x1 - last.x0, rule.x1 - rule.x0);
      return overlap > shorter * 0.5 && rule.y0 - last.y1 < lineHeight * MAX_RULE_GAP_LINES;
    });
    if (group) group.push(rule);
    else groups.push([rule]);
  }
  const tables: Box[] = [];
  for (const group of groups) {
    if (group.length < 2) continue;
    let box = union(group);
    const crossing = verticals.filter(
      (v) => v.x0 >= box.x0 - 4 && v.x1 <= box.x1 + 4 && v.y0 < box.y1 && v.y1 > box.y0,
    );
    if (crossing.length === 0 && group.length < 3) continue;
    if (crossing.length > 0) box = union([box, ...crossing]);
    const inside = lines.filter((line) => overlapShare(line, box) > 0.5);
    if (inside.length < 2) continue;
    tables.push(box);
  }
  return tables;
}

function unruledTables(lines: readonly TextLine[], lineHeight: number): Box[] {
  const rows = groupRows([...lines]);
  const tables: Box[] = [];
  let run: TextLine[][] = [];
  const flush = () => {
    if (run.length >= 3 && sharesColumns(run, lineHeight)) tables.push(union(run.flat()));
    run = [];
  };
  for (const row of rows) {
    const tabular =
      row.length >= 2 &&
      hasColumnGaps(row, lineHeight) &&
      row.every((s) => words(s.text) <= MAX_WORDS_PER_CELL);
    const previous = run.at(-1);
    const close =
      previous && Math.min(...row.map((s) => s.y0)) - Math.max(...previous.map((s) => s.y1)) < lineHeight * 2;
    if (tabular && (run.length === 0 || close)) run.push(row);
    else {
      flush();
      if (tabular) run.push(row);
    }
  }
  flush();
  return tables;
}

function hasColumnGaps(row: readonly TextLine[], lineHeight: number): boolean {
  for (let i = 1; i < row.length; i++)
    if (row[i]!.x0 - row[i - 1]!.x1 < lineHeight * COLUMN_GAP_LINES) return false;
  return true;
}

/** Most rows start segments at the same x positions (left-aligned columns) or end them there (numbers). */
function sharesColumns(rows: readonly TextLine[][], lineHeight: number): boolean {
  const anchors = (row: readonly TextLine[]) => row.flatMap((s) => [s.x0, s.x1]);
  const first = anchors(rows[0]!);
  let aligned = 0;
  for (const row of rows.slice(1)) {
    const matches = anchors(row).filter((x) =>
      first.some((anchor) => Math.abs(anchor - x) < lineHeight),
    ).length;
    if (matches >= 2) aligned++;
  }
  return aligned >= (rows.length - 1) * 0.6;
}

function words(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}
