import type { InferenceSession } from 'onnxruntime-node';
import sharp from 'sharp';
import type { RgbaImage } from '../types.js';
import {
  connectedRegions,
  convexHull,
  minAreaRect,
  type Point,
  type RotatedRect,
  rectCorners,
  regionOutline,
} from './geometry.js';

/**
 * PP-OCR text detection (a DB, "differentiable binarisation", network): the model outputs a per-pixel
 * text probability; text boxes are the connected regions of that map, fitted with rotated rectangles and
 * grown back by the margin the training labels were shrunk by.
 */
export interface DetectorSettings {
  /** The longer image side is scaled to at most this many pixels before detection. */
  maxSideLength: number;
  /** Probability above which a pixel counts as text. */
  pixelThreshold: number;
  /** Mean probability a box needs to be kept. */
  boxThreshold: number;
  /** How much a box is grown: distance = area × ratio / perimeter (the DB paper's unclip rule). */
  unclipRatio: number;
  maxCandidates: number;
}

export const DEFAULT_DETECTOR_SETTINGS: DetectorSettings = {
  maxSideLength: 1280,
  pixelThreshold: 0.3,
  boxThreshold: 0.6,
  unclipRatio: 1.5,
  maxCandidates: 1000,
};

/** Boxes smaller than this (pixels, short side, at detection scale) are noise. */
const MIN_BOX_SIDE = 3;
// The model was trained on BGR images normalised with the ImageNet mean and deviation.
const MEAN_BGR = [0.485, 0.456, 0.406];
const STD_BGR = [0.229, 0.224, 0.225];

/** Detect text boxes; rectangles are returned in the input image's pixel coordinates. */
export async function detectText(
  session: InferenceSession,
  ort: typeof import('onnxruntime-node'),
  image: RgbaImage,
  settings: DetectorSettings = DEFAULT_DETECTOR_SETTINGS,
): Promise<RotatedRect[]> {
  const { tensor, width, height } = await toDetectorInput(ort, image, settings.maxSideLength);
  const output = await session.run({ [session.inputNames[0]!]: tensor });
  const probabilities = output[session.outputNames[0]!]!.data as Float32Array;
  const rects = boxesFromProbabilities(probabilities, width, height, settings);
  const scaleX = image.width / width;
  const scaleY = image.height / height;
  return rects.map((rect) => scaleRect(rect, scaleX, scaleY));
}

/** Resize so both sides are multiples of 32 (the network downsamples 32×) and normalise to NCHW BGR. */
async function toDetectorInput(
  ort: typeof import('onnxruntime-node'),
  image: RgbaImage,
  maxSideLength: number,
): Promise<{ tensor: import('onnxruntime-node').Tensor; width: number; height: number }> {
  const scale = Math.min(1, maxSideLength / Math.max(image.width, image.height));
  const width = Math.max(32, Math.round((image.width * scale) / 32) * 32);
  const height = Math.max(32, Math.round((image.height * scale) / 32) * 32);
  const resized = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 4 } })
    .resize(width, height, { fit: 'fill', kernel: 'linear' })
    .raw()
    .toBuffer();
  const plane = width * height;
  const input = new Float32Array(3 * plane);
  for (let i = 0; i < plane; i++) {
    const r = resized[i * 4]! / 255;
    const g = resized[i * 4 + 1]! / 255;
    const b = resized[i * 4 + 2]! / 255;
    input[i] = (b - MEAN_BGR[0]!) / STD_BGR[0]!;
    input[plane + i] = (g - MEAN_BGR[1]!) / STD_BGR[1]!;
    input[2 * plane + i] = (r - MEAN_BGR[2]!) / STD_BGR[2]!;
  }
  return { tensor: new ort.Tensor('float32', input, [1, 3, height, width]), width, height };
}

/** The DB post-processing: threshold, regions, rotated rectangles, score filter, unclip. */
export function boxesFromProbabilities(
  probabilities: Float32Array,
  width: number,
  height: number,
  settings: DetectorSettings,
): RotatedRect[] {
  const mask = new Uint8Array(width * height);
  for (let i = 0; i < mask.length; i++) mask[i] = probabilities[i]! > settings.pixelThreshold ? 1 : 0;
  const boxes: RotatedRect[] = [];
  for (const region of connectedRegions(mask, width, height, settings.maxCandidates)) {
    const rect = minAreaRect(convexHull(regionOutline(region)));
    if (Math.min(rect.width, rect.height) < MIN_BOX_SIDE) continue;
    if (meanInside(probabilities, width, region, rect) < settings.boxThreshold) continue;
    const grown = unclip(rect, settings.unclipRatio);
    if (grown.height < MIN_BOX_SIDE + 2) continue;
    boxes.push(grown);
  }
  return boxes;
}

/** Mean probability of the pixels inside the rectangle (within the region's bounding box). */
function meanInside(
  probabilities: Float32Array,
  width: number,
  region: { minX: number; minY: number; maxX: number; maxY: number },
  rect: RotatedRect,
): number {
  let sum = 0;
  let count = 0;
  for (let y = region.minY; y <= region.maxY; y++) {
    for (let x = region.minX; x <= region.maxX; x++) {
      const dx = x + 0.5 - rect.cx;
      const dy = y + 0.5 - rect.cy;
      const u = dx * rect.ux + dy * rect.uy;
      const v = -dx * rect.uy + dy * rect.ux;
      if (Math.abs(u) <= rect.width / 2 && Math.abs(v) <= rect.height / 2) {
        sum += probabilities[y * width + x]!;
        count++;
      }
    }
  }
  return count === 0 ? 0 : sum / count;
}

/** Grow a rectangle on every side by area × ratio / perimeter (offsetting a rectangle keeps it one). */
export function unclip(rect: RotatedRect, ratio: number): RotatedRect {
  const distance = (rect.width * rect.height * ratio) / (2 * (rect.width + rect.height));
  return { ...rect, width: rect.width + 2 * distance, height: rect.height + 2 * distance };
}

/** Map a rectangle through a non-uniform scale: scale its corners, then refit. */
function scaleRect(rect: RotatedRect, scaleX: number, scaleY: number): RotatedRect {
  const [tl, tr, , bl] = rectCorners(rect).map((p): Point => ({ x: p.x * scaleX, y: p.y * scaleY }));
  const width = Math.hypot(tr!.x - tl!.x, tr!.y - tl!.y);
  const height = Math.hypot(bl!.x - tl!.x, bl!.y - tl!.y);
  return {
    cx: rect.cx * scaleX,
    cy: rect.cy * scaleY,
    ux: width === 0 ? 1 : (tr!.x - tl!.x) / width,
    uy: width === 0 ? 0 : (tr!.y - tl!.y) / width,
    width,
    height,
  };
}
