import { describe, expect, it } from 'vitest';
import { assembleLines, joinRowFragments } from './lines.js';
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

  it('joins a bullet drawn a hair lower than its text to it, once', () => {
    const lines = [
      line('Life Cycle Assessment course and exam', 100, 400, 100),
      { ...line('•', 85, 90, 100.6) },
      line('more than 130 Critical Reviews', 100, 400, 112),
      { ...line('\uf0a7', 85, 90, 112.6) },
    ];
    expect(assembleLines(lines).map((l) => l.text)).toEqual([
      '• Life Cycle Assessment course and exam',
      '\uf0a7 more than 130 Critical Reviews',
    ]);
  });
});
