import type { Box, Rule, TextLine } from '../layout/types.js';
import { centreX, centreY, groupRows, overlapShare } from './rows.js';

/**
 * Cells of a table region from the positions of its text: columns are the x-ranges that text occupies
 * in every row taken together (or the vertical rules, when the table has them), rows are the visual rows
 * (or the bands between horizontal rules). Each text segment lands in the cell under its centre.
 */
export function tableCells(region: Box, lines: readonly TextLine[], rules: readonly Rule[]): string[][] {
  const inside = lines.filter((line) => overlapShare(line, region) > 0.5);
  if (inside.length === 0) return [];
  const columns = columnBounds(region, inside, rules);
  const rowBands = rowBounds(region, inside, rules);
  const grid = rowBands.map(() => columns.map(() => [] as TextLine[]));
  for (const line of inside) {
    const row = indexOf(rowBands, centreY(line));
    const column = indexOf(columns, centreX(line));
    grid[row]![column]!.push(line);
  }
  const text = grid.map((row) =>
    row.map((cell) =>
      cell
        .sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0)
        .map((line) => line.text)
        .join(' '),
    ),
  );
  // Columns and rows with no text at all are artefacts of double rules or margins.
  const keepColumns = columns.map((_, c) => text.some((row) => row[c] !== ''));
  return text
    .filter((row) => row.some((cell) => cell !== ''))
    .map((row) => row.filter((_, c) => keepColumns[c]));
}

/** Index of the interval holding `value`, or the nearest one. */
function indexOf(bounds: readonly [number, number][], value: number): number {
  let best = 0;
  let bestDistance = Number.POSITIVE_INFINITY;
  bounds.forEach(([start, end], index) => {
    const distance = value < start ? start - value : value > end ? value - end : 0;
    if (distance < bestDistance) {
      bestDistance = distance;
      best = index;
    }
  });
  return best;
}

/** Intervals between separators inside [start, end]. */
function between(separators: number[], start: number, end: number): [number, number][] {
  const cuts = [start, ...separators.filter((s) => s > start && s < end).sort((a, b) => a - b), end];
  const intervals: [number, number][] = [];
  for (let i = 0; i + 1 < cuts.length; i++)
    if (cuts[i + 1]! - cuts[i]! > 2) intervals.push([cuts[i]!, cuts[i + 1]!]);
  return intervals;
}

function columnBounds(region: Box, lines: readonly TextLine[], rules: readonly Rule[]): [number, number][] {
  const regionHeight = region.y1 - region.y0;
  const verticals = rules.filter(
    (rule) =>
      rule.y1 - rule.y0 > rule.x1 - rule.x0 &&
      rule.y1 - rule.y0 > regionHeight * 0.5 &&
      overlapShare(rule, region) > 0.5,
  );
  if (verticals.length >= 1) return between(verticals.map(centreX), region.x0, region.x1);
  // No rules: merge the x-ranges of all segments; what stays apart are the columns.
  const spans = lines.map((line) => [line.x0, line.x1] as [number, number]).sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const span of spans) {
    const last = merged.at(-1);
    if (last && span[0] <= last[1]) last[1] = Math.max(last[1], span[1]);
    else merged.push([...span]);
  }
  return merged;
}

function rowBounds(region: Box, lines: readonly TextLine[], rules: readonly Rule[]): [number, number][] {
  const regionWidth = region.x1 - region.x0;
  const horizontals = rules.filter(
    (rule) =>
      rule.x1 - rule.x0 > rule.y1 - rule.y0 &&
      rule.x1 - rule.x0 > regionWidth * 0.6 &&
      overlapShare(rule, region) > 0.5,
  );
  const rows = groupRows(lines).map(
    (row) => [Math.min(...row.map((l) => l.y0)), Math.max(...row.map((l) => l.y1))] as [number, number],
  );
  // A fully ruled table (a rule under every row) may wrap a cell over several lines: use the bands
  // between rules. Tables with only a few rules (top, under the header, bottom) use the visual rows.
  if (horizontals.length >= 3 && horizontals.length - 1 >= rows.length * 0.8) {
    const bands = between(horizontals.map(centreY), region.y0, region.y1);
    return bands.filter(([start, end]) =>
      rows.some(([y0, y1]) => (y0 + y1) / 2 > start && (y0 + y1) / 2 < end),
    );
  }
  return rows;
}
