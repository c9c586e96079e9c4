import { describe, expect, it } from 'vitest';
import { encodeBmp } from '../../ocr/test-support/bmp.js';
import { decodeBmp } from './bmp.js';

function paletteBmp(): Uint8Array {
  // 2×2, 1 bit per pixel, palette black/white, bottom-up: rows "10" (bottom) and "01" (top).
  const out = new Uint8Array(62 + 8);
  const view = new DataView(out.buffer);
  out.set([0x42, 0x4d]);
  view.setUint32(2, out.length, true);
  view.setUint32(10, 62, true);
  view.setUint32(14, 40, true);
  view.setInt32(18, 2, true);
  view.setInt32(22, 2, true);
  view.setUint16(26, 1, true);
  view.setUint16(28, 1, true);
  out.set([0, 0, 0, 0, 255, 255, 255, 0], 54);
  out[62] = 0b10000000; // bottom row: white, black
  out[66] = 0b01000000; // top row: black, white
  return out;
}

describe('decodeBmp', () => {
  it('round-trips a 24-bit image', () => {
    const image = {
      width: 3,
      height: 2,
      data: Uint8Array.from([
        255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 10, 20, 30, 255, 40, 50, 60, 255, 70, 80, 90, 255,
      ]),
    };
    expect(decodeBmp(encodeBmp(image), 100)).toEqual(image);
  });

  it('reads palette images bottom-up', () => {
    const { data } = decodeBmp(paletteBmp(), 100);
    expect([...data.filter((_, i) => i % 4 === 0)]).toEqual([0, 255, 255, 0]);
  });

  it('checks the pixel cap and truncation', () => {
    const bmp = encodeBmp({ width: 10, height: 10, data: new Uint8Array(400) });
    expect(() => decodeBmp(bmp, 99)).toThrowError(expect.objectContaining({ code: 'limit_exceeded' }));
    expect(() => decodeBmp(bmp.slice(0, 100), 1000)).toThrowError(
      expect.objectContaining({ code: 'corrupt_document' }),
    );
  });
});
