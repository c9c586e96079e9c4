import { describe, expect, it } from 'vitest';
import { readingOrder } from './reading-order.js';

const box = (x0: number, y0: number, x1: number, y1: number) => ({ x0, y0, x1, y1 });

describe('readingOrder', () => {
  it('reads two columns column by column under a spanning title', () => {
    const boxes = [
      box(320, 100, 540, 200), // right, top
      box(72, 100, 290, 200), // left, top
      box(72, 40, 540, 80), // title
      box(72, 220, 290, 320), // left, bottom
      box(320, 220, 540, 320), // right, bottom
    ];
    expect(readingOrder(boxes)).toEqual([2, 1, 3, 0, 4]);
  });

  it('reads the columns above a full-width figure before those below it', () => {
    const boxes = [
      box(72, 100, 290, 200), // 0 left above
      box(320, 100, 540, 200), // 1 right above
      box(72, 220, 540, 300), // 2 figure spanning both
      box(72, 320, 290, 420), // 3 left below
      box(320, 320, 540, 420), // 4 right below
    ];
    expect(readingOrder(boxes)).toEqual([0, 1, 2, 3, 4]);
  });

  it('reads a centred header line above the columns before them, though it lies right of a column heading', () => {
    const boxes = [
      box(159, 222, 203, 238), // 0 "Abstract", centred over the left column
      box(218, 162, 383, 188), // 1 e-mail line of the author block, centred on the page
      box(89, 244, 275, 448), // 2 left column text
      box(303, 223, 527, 766), // 3 right column text
      box(97, 133, 504, 169), // 4 affiliations, full width
      box(14, 263, 37, 610), // 5 a stamp in the left margin, read first as the leftmost column
    ];
    expect(readingOrder(boxes)).toEqual([5, 4, 1, 0, 2, 3]);
  });

  it('reads the indent levels of a code listing top to bottom', () => {
    // "pxc 1 create" / "port 1/x1" (deeper) / "exit" (outer, ends just left of the deeper lines) / ...
    const boxes = [
      box(160, 100, 220, 110), // 0 pxc 1 create
      box(185, 111, 265, 121), // 1 port 1/x1/1/c1/1 (indented)
      box(160, 122, 181, 132), // 2 exit
      box(160, 133, 220, 143), // 3 pxc 2 create
      box(185, 144, 265, 154), // 4 port (indented)
      box(72, 170, 540, 200), // 5 paragraph below
    ];
    expect(readingOrder(boxes)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('keeps a single column top to bottom', () => {
    const boxes = [box(72, 300, 500, 320), box(72, 100, 500, 120), box(90, 200, 480, 220)];
    expect(readingOrder(boxes)).toEqual([1, 2, 0]);
  });
});
