import type { RgbaImage } from '../types.js';
import type { RotatedRect } from './geometry.js';

/**
 * Cut a rotated text box out of the page, upright, resampled to `height` × `width` pixels, straight into
 * the recognition model's input layout: planar BGR scaled to -1..1 (the model's training normalisation).
 * Pixels outside the page read as white. Bilinear sampling; when the box is more than twice the target
 * height, each output pixel averages a few samples so that downscaling does not alias.
 *
 * `out` holds three planes of `height` × `rowStride` floats starting at `offset`; columns from `width` to
 * `rowStride` are left as they are (padding).
 */
export function cropBoxInto(
  image: RgbaImage,
  box: RotatedRect,
  width: number,
  height: number,
  out: Float32Array,
  offset: number,
  rowStride: number,
): void {
  const { data, width: imageWidth, height: imageHeight } = image;
  const plane = height * rowStride;
  const samples = Math.min(4, Math.max(1, Math.ceil(box.height / height)));
  const sampleWeight = 1 / (samples * samples * 127.5);
  // Box coordinates (u along the text, v across it, both from the box centre) of output pixel centres.
  const stepU = box.width / width;
  const stepV = box.height / height;
  const subStepU = stepU / samples;
  const subStepV = stepV / samples;
  const firstU = -box.width / 2 + stepU / 2 - ((samples - 1) / 2) * subStepU;
  const firstV = -box.height / 2 + stepV / 2 - ((samples - 1) / 2) * subStepV;
  const { cx, cy, ux, uy } = box;
  for (let ty = 0; ty < height; ty++) {
    const rowOffset = offset + ty * rowStride;
    for (let tx = 0; tx < width; tx++) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (let sv = 0; sv < samples; sv++) {
        const v = firstV + ty * stepV + sv * subStepV;
        for (let su = 0; su < samples; su++) {
          const u = firstU + tx * stepU + su * subStepU;
          // Page position of the sample, shifted by half a pixel so that integers are pixel centres.
          const x = cx + u * ux - v * uy - 0.5;
          const y = cy + u * uy + v * ux - 0.5;
          const x0 = Math.floor(x);
          const y0 = Math.floor(y);
          const ax = x - x0;
          const ay = y - y0;
          const w00 = (1 - ax) * (1 - ay);
          const w10 = ax * (1 - ay);
          const w01 = (1 - ax) * ay;
          const w11 = ax * ay;
          if (x0 >= 0 && y0 >= 0 && x0 + 1 < imageWidth && y0 + 1 < imageHeight) {
            const i00 = (y0 * imageWidth + x0) * 4;
            const i01 = i00 + imageWidth * 4;
            r += data[i00]! * w00 + data[i00 + 4]! * w10 + data[i01]! * w01 + data[i01 + 4]! * w11;
            g += data[i00 + 1]! * w00 + data[i00 + 5]! * w10 + data[i01 + 1]! * w01 + data[i01 + 5]! * w11;
            b += data[i00 + 2]! * w00 + data[i00 + 6]! * w10 + data[i01 + 2]! * w01 + data[i01 + 6]! * w11;
          } else {
            r += edgeSample(image, x0, y0, 0, w00, w10, w01, w11);
            g += edgeSample(image, x0, y0, 1, w00, w10, w01, w11);
            b += edgeSample(image, x0, y0, 2, w00, w10, w01, w11);
          }
        }
      }
      const at = rowOffset + tx;
      out[at] = b * sampleWeight - 1;
      out[at + plane] = g * sampleWeight - 1;
      out[at + 2 * plane] = r * sampleWeight - 1;
    }
  }
}

/** The bilinear sample of one channel at the page border, where neighbours may lie outside (white). */
function edgeSample(
  image: RgbaImage,
  x0: number,
  y0: number,
  channel: number,
  w00: number,
  w10: number,
  w01: number,
  w11: number,
): number {
  return (
    pixel(image, x0, y0, channel) * w00 +
    pixel(image, x0 + 1, y0, channel) * w10 +
    pixel(image, x0, y0 + 1, channel) * w01 +
    pixel(image, x0 + 1, y0 + 1, channel) * w11
  );
}

function pixel(image: RgbaImage, x: number, y: number, channel: number): number {
  if (x < 0 || y < 0 || x >= image.width || y >= image.height) return 255;
  return image.data[(y * image.width + x) * 4 + channel]!;
}
