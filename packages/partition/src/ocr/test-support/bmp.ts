import type { RgbaImage } from '../types.js';

/** Encode RGBA pixels as a 24-bit bottom-up BMP (sharp cannot write BMP; tests need one). */
export function encodeBmp(image: RgbaImage): Uint8Array {
  const rowSize = Math.ceil((image.width * 3) / 4) * 4;
  const pixelBytes = rowSize * image.height;
  const out = new Uint8Array(54 + pixelBytes);
  const view = new DataView(out.buffer);
  out[0] = 0x42; // 'B'
  out[1] = 0x4d; // 'M'
  view.setUint32(2, out.length, true);
  view.setUint32(10, 54, true);
  view.setUint32(14, 40, true);
  view.setInt32(18, image.width, true);
  view.setInt32(22, image.height, true);
  view.setUint16(26, 1, true);
  view.setUint16(28, 24, true);
  view.setUint32(34, pixelBytes, true);
  for (let y = 0; y < image.height; y++) {
    const row = 54 + (image.height - 1 - y) * rowSize;
    for (let x = 0; x < image.width; x++) {
      const source = (y * image.width + x) * 4;
      out[row + x * 3] = image.data[source + 2]!;
      out[row + x * 3 + 1] = image.data[source + 1]!;
      out[row + x * 3 + 2] = image.data[source]!;
    }
  }
  return out;
}
