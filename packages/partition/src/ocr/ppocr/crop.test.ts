import { describe, expect, it } from 'vitest';
import type { RgbaImage } from '../types.js';
import { cropBoxInto } from './crop.js';

/** A 20×10 image whose red channel is 10·x, green 20·y, blue 100. */
function gradient(): RgbaImage {
  const width = 20;
  const height = 10;
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      data.set([x * 10, y * 20, 100, 255], (y * width + x) * 4);
    }
  }
  return { data, width, height };
}

const normalised = (value: number) => value / 127.5 - 1;

describe('cropBoxInto', () => {
  it('samples pixel centres of an axis-aligned box into planar BGR scaled to -1..1', () => {
    const image = gradient();
    const [width, height, stride] = [10, 6, 12];
    const out = new Float32Array(3 * height * stride).fill(9);
    cropBoxInto(image, { cx: 10, cy: 5, ux: 1, uy: 0, width: 10, height: 6 }, width, height, out, 0, stride);
    const plane = height * stride;
    for (let ty = 0; ty < height; ty++) {
      for (let tx = 0; tx < width; tx++) {
        const at = ty * stride + tx;
        expect(out[at]).toBeCloseTo(normalised(100), 5); // blue first
        expect(out[plane + at]).toBeCloseTo(normalised((ty + 2) * 20), 5);
        expect(out[2 * plane + at]).toBeCloseTo(normalised((tx + 5) * 10), 5);
      }
      // Padding columns are left as they were.
      expect(out[ty * stride + width]).toBe(9);
      expect(out[ty * stride + stride - 1]).toBe(9);
    }
  });

  it('reads along the box direction for rotated boxes', () => {
    const image = gradient();
    // A box whose text runs downwards: u is +y, v (across the text) is -x.
    const out = new Float32Array(3 * 2 * 6);
    cropBoxInto(image, { cx: 10, cy: 5, ux: 0, uy: 1, width: 6, height: 2 }, 6, 2, out, 0, 6);
    const plane = 12;
    for (let tx = 0; tx < 6; tx++) {
      expect(out[plane + tx]).toBeCloseTo(normalised((tx + 2) * 20), 5); // green follows y along the row
      expect(out[2 * plane + tx]).toBeCloseTo(normalised(10 * 10), 5); // first row: x = 10
      expect(out[2 * plane + 6 + tx]).toBeCloseTo(normalised(9 * 10), 5); // second row: x = 9
    }
  });

  it('reads white outside the image', () => {
    const image = gradient();
    const out = new Float32Array(3 * 2 * 4);
    // Centred on the left edge: the left half of the box lies outside.
    cropBoxInto(image, { cx: 0, cy: 5, ux: 1, uy: 0, width: 4, height: 2 }, 4, 2, out, 0, 4);
    expect(out[0]).toBeCloseTo(1, 5);
    expect(out[16]).toBeCloseTo(1, 5); // red plane, first pixel
    expect(out[16 + 3]).toBeCloseTo(normalised(10), 5); // x = 1 is inside
  });

  it('averages when shrinking a tall box, so a thin stroke does not vanish', () => {
    // One black row (y = 5) on white, 16 rows cropped to 2: a single bilinear sample per output pixel
    // (at y = 3.5) would miss it; averaged samples keep it as a light grey.
    const width = 8;
    const height = 16;
    const data = new Uint8Array(width * height * 4).fill(255);
    for (let x = 0; x < width; x++) data.set([0, 0, 0, 255], (5 * width + x) * 4);
    const out = new Float32Array(3 * 2 * 8);
    cropBoxInto(
      { data, width, height },
      { cx: 4, cy: 8, ux: 1, uy: 0, width: 8, height: 16 },
      8,
      2,
      out,
      0,
      8,
    );
    for (let x = 0; x < width; x++) {
      expect(out[x]).toBeLessThan(0.9); // first output row: darkened by the stroke
      expect(out[x]).toBeGreaterThan(0.5);
      expect(out[8 + x]).toBeCloseTo(1, 5); // second output row: white
    }
  });
});
