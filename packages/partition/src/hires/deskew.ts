import sharp from 'sharp';
import type { RgbaImage } from '../ocr/types.js';

/**
 * Skew correction for scans: a page fed into a scanner at an angle has slanted text lines, which makes
 * line boxes tall and rows overlap. The angle is the one at which the horizontal projection of the ink
 * is sharpest (lines of text fall into few, full rows); the page is then rotated back.
 */

/** Largest skew looked for, in degrees; pages turned further are a different problem (orientation). */
const MAX_DEGREES = 5;
/** Below this the page is left alone (interpolation blurs more than the skew harms). */
const MIN_CORRECTION_DEGREES = 0.3;
/** The estimate works on a reduced copy this wide (plenty to resolve 0.1°). */
const WORK_WIDTH = 800;

export function estimateSkewDegrees(image: RgbaImage): number {
  const step = Math.max(1, Math.floor(image.width / WORK_WIDTH));
  const xs: number[] = [];
  const ys: number[] = [];
  for (let y = 0; y < image.height; y += step) {
    for (let x = 0; x < image.width; x += step) {
      const i = (y * image.width + x) * 4;
      const luma = (image.data[i]! * 77 + image.data[i + 1]! * 150 + image.data[i + 2]! * 29) >> 8;
      if (luma < 128) {
        xs.push(x / step);
        ys.push(y / step);
      }
    }
  }
  if (xs.length < 50) return 0;
  const rows = Math.ceil(image.height / step) + Math.ceil(image.width / step);
  const sharpness = (degrees: number) => {
    const radians = (degrees * Math.PI) / 180;
    const sin = Math.sin(radians);
    const cos = Math.cos(radians);
    const histogram = new Float64Array(rows * 2);
    for (let i = 0; i < xs.length; i++) {
      const bin = Math.round(ys[i]! * cos - xs[i]! * sin) + rows;
      histogram[bin]! += 1;
    }
    let sum = 0;
    for (const count of histogram) sum += count * count;
    return sum;
  };
  let best = 0;
  let bestScore = sharpness(0);
  for (const stepDegrees of [0.5, 0.1]) {
    const centre = best;
    const span = stepDegrees === 0.5 ? MAX_DEGREES : 0.5;
    for (let degrees = centre - span; degrees <= centre + span + 1e-9; degrees += stepDegrees) {
      const score = sharpness(degrees);
      if (score > bestScore) {
        bestScore = score;
        best = degrees;
      }
    }
  }
  return Math.round(best * 100) / 100;
}

/** The page turned upright (white corners), or the same image when it is straight enough. */
export async function deskew(image: RgbaImage): Promise<{ image: RgbaImage; degrees: number }> {
  const degrees = estimateSkewDegrees(image);
  if (Math.abs(degrees) < MIN_CORRECTION_DEGREES) return { image, degrees: 0 };
  const { data, info } = await sharp(image.data, {
    raw: { width: image.width, height: image.height, channels: 4 },
  })
    .rotate(-degrees, { background: '#ffffff' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return {
    image: {
      data: new Uint8Array(data.buffer, data.byteOffset, data.length),
      width: info.width,
      height: info.height,
    },
    degrees,
  };
}
