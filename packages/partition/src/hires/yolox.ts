import type { InferenceSession } from 'onnxruntime-node';
import sharp from 'sharp';
import { ServiceError } from '../errors.js';
import type { LayoutLabel, LayoutRegion } from '../layout/types.js';
import { createSession, loadOnnxRuntime } from '../ocr/onnx.js';
import type { RgbaImage } from '../ocr/types.js';

/**
 * A user's YOLOX layout model (ONNX), e.g. one trained on DocLayNet. Expected format (docs/ocr.md):
 * - one input, float32 [1, 3, H, W] with fixed H and W (e.g. 1024×768): BGR pixel values 0..255, the page
 *   letterboxed (scaled to fit, top-left aligned) on a canvas filled with 114;
 * - one output, float32 [1, N, 5 + 11]: the raw YOLOX head per anchor point over strides 8, 16 and 32
 *   (N = Σ (H/s)·(W/s)), each row (dx, dy, log w, log h, objectness, 11 class scores) with sigmoid already
 *   applied to objectness and classes, as YOLOX exports do;
 * - classes in DocLayNet order (DOCLAYNET_LABELS).
 */
export const DOCLAYNET_LABELS: readonly LayoutLabel[] = [
  'Caption',
  'Footnote',
  'Formula',
  'List-item',
  'Page-footer',
  'Page-header',
  'Picture',
  'Section-header',
  'Table',
  'Text',
  'Title',
];

const STRIDES = [8, 16, 32];
const PAD_VALUE = 114;
/** Detections below this score (objectness × class probability) are dropped. */
const SCORE_THRESHOLD = 0.1;
/** Boxes overlapping a better one by more than this IoU are duplicates. */
const NMS_IOU = 0.45;

export interface YoloxModel {
  readonly name: string;
  detect(image: RgbaImage): Promise<LayoutRegion[]>;
}

export async function loadYoloxModel(path: string, bytes: Uint8Array): Promise<YoloxModel> {
  let session: InferenceSession;
  try {
    session = await createSession(bytes);
  } catch (error) {
    throw new ServiceError('unknown_model', `Unknown model type: ${path}`, {
      cause: error,
    });
  }
  const ort = await loadOnnxRuntime();
  const input = session.inputMetadata[0];
  const shape = input && 'shape' in input ? input.shape : [];
  const [, channels, inputHeight, inputWidth] = shape;
  if (
    shape.length !== 4 ||
    channels !== 3 ||
    typeof inputHeight !== 'number' ||
    typeof inputWidth !== 'number'
  ) {
    await session.release();
    throw new ServiceError(
      'unknown_model',
      `Unknown model type: ${path} (a YOLOX layout model needs one input of fixed shape [1, 3, H, W])`,
    );
  }
  return {
    name: path,
    async detect(image) {
      const { tensor, ratio } = await letterbox(ort, image, inputWidth, inputHeight);
      const output = (await session.run({ [session.inputNames[0]!]: tensor }))[session.outputNames[0]!]!;
      const dims = output.dims;
      if (dims.length !== 3 || dims[2] !== 5 + DOCLAYNET_LABELS.length) {
        throw new ServiceError(
          'unknown_model',
          `Unknown model type: ${path} (output shape [${dims.join(', ')}] is not [1, N, 16] of YOLOX with 11 DocLayNet classes)`,
        );
      }
      const detections = decodeYolox(output.data as Float32Array, dims[1]!, inputWidth, inputHeight);
      return nonMaximumSuppression(detections).map((d) => ({
        x0: clamp(d.x0 / ratio, image.width),
        y0: clamp(d.y0 / ratio, image.height),
        x1: clamp(d.x1 / ratio, image.width),
        y1: clamp(d.y1 / ratio, image.height),
        label: d.label,
        probability: d.probability,
      }));
    },
  };
}

function clamp(value: number, max: number): number {
  return Math.max(0, Math.min(max, value));
}

/** Scale the page to fit the input (keeping its aspect), top-left aligned on a grey canvas, as BGR 0..255. */
async function letterbox(
  ort: typeof import('onnxruntime-node'),
  image: RgbaImage,
  width: number,
  height: number,
): Promise<{ tensor: import('onnxruntime-node').Tensor; ratio: number }> {
  const ratio = Math.min(width / image.width, height / image.height);
  const scaledWidth = Math.max(1, Math.round(image.width * ratio));
  const scaledHeight = Math.max(1, Math.round(image.height * ratio));
  const scaled = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 4 } })
    .resize(scaledWidth, scaledHeight, { fit: 'fill' })
    .raw()
    .toBuffer();
  const plane = width * height;
  const data = new Float32Array(3 * plane).fill(PAD_VALUE);
  for (let y = 0; y < scaledHeight; y++) {
    for (let x = 0; x < scaledWidth; x++) {
      const source = (y * scaledWidth + x) * 4;
      const target = y * width + x;
      data[target] = scaled[source + 2]!;
      data[plane + target] = scaled[source + 1]!;
      data[2 * plane + target] = scaled[source]!;
    }
  }
  return { tensor: new ort.Tensor('float32', data, [1, 3, height, width]), ratio };
}

interface Detection {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  label: LayoutLabel;
  probability: number;
}

/**
 * YOLOX decoding: anchor points are the cells of the stride-8, 16 and 32 grids in row-major order;
 * centre = (offset + cell) × stride, size = exp(log size) × stride, score = objectness × best class.
 */
export function decodeYolox(
  raw: Float32Array,
  count: number,
  inputWidth: number,
  inputHeight: number,
): Detection[] {
  const row = 5 + DOCLAYNET_LABELS.length;
  const detections: Detection[] = [];
  let anchor = 0;
  for (const stride of STRIDES) {
    const gridWidth = Math.floor(inputWidth / stride);
    const gridHeight = Math.floor(inputHeight / stride);
    for (let gy = 0; gy < gridHeight; gy++) {
      for (let gx = 0; gx < gridWidth; gx++, anchor++) {
        if (anchor >= count) return detections;
        const base = anchor * row;
        const objectness = raw[base + 4]!;
        if (objectness < SCORE_THRESHOLD) continue;
        let best = 0;
        for (let c = 1; c < DOCLAYNET_LABELS.length; c++)
          if (raw[base + 5 + c]! > raw[base + 5 + best]!) best = c;
        const probability = objectness * raw[base + 5 + best]!;
        if (probability < SCORE_THRESHOLD) continue;
        const cx = (raw[base]! + gx) * stride;
        const cy = (raw[base + 1]! + gy) * stride;
        const w = Math.exp(raw[base + 2]!) * stride;
        const h = Math.exp(raw[base + 3]!) * stride;
        detections.push({
          x0: cx - w / 2,
          y0: cy - h / 2,
          x1: cx + w / 2,
          y1: cy + h / 2,
          label: DOCLAYNET_LABELS[best]!,
          probability,
        });
      }
    }
  }
  return detections;
}

/** Greedy NMS across classes: a layout region has one label, so overlapping boxes of any class compete. */
export function nonMaximumSuppression(detections: readonly Detection[], iouLimit = NMS_IOU): Detection[] {
  const sorted = [...detections].sort((a, b) => b.probability - a.probability);
  const kept: Detection[] = [];
  for (const detection of sorted)
    if (kept.every((other) => iou(detection, other) <= iouLimit)) kept.push(detection);
  return kept;
}

function iou(a: Detection, b: Detection): number {
  const w = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
  const h = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
  if (w <= 0 || h <= 0) return 0;
  const intersection = w * h;
  return intersection / ((a.x1 - a.x0) * (a.y1 - a.y0) + (b.x1 - b.x0) * (b.y1 - b.y0) - intersection);
}
