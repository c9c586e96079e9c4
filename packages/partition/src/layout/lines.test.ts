import { describe, expect, it } from 'vitest';
import { joinRowFragments } from './lines.js';
import type { TextLine } from './types.js';

const line = (text: string, x0: number, x1: number, y0: number): TextLine => ({
  text,
  x0,
  x1,
  y0,
  y1: y0 + 12,
  fontSize: 10,
  origin: 'text_layer',
});

describe('joinRowFragments', () => {
  it('joins the fragments of one line that a wide gap separated', () => {
    const joined = joinRowFragments([
      line('encoder framework.', 89, 171, 100),
      line('When evaluated', 182, 273, 100),
    ]);
    expect(joined.map((l) => l.text)).toEqual(['encoder framework. When evaluated']);
  });

  it('never joins two stacked lines of a column that a drifting neighbour column put in one row', () => {
    const lines = [
      line('of questions and passages by a simple dual-', 89, 275, 100),
      line('the right column runs on a baseline of its own', 307, 527, 105),
      line('encoder framework.', 89, 171, 110),
    ];
    expect(
      joinRowFragments(lines)
        .map((l) => l.text)
        .sort(),
    ).toEqual([
      'encoder framework.',
      'of questions and passages by a simple dual-',
      'the right column runs on a baseline of its own',
    ]);
  });
});
