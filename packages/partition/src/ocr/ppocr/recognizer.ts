import type { InferenceSession, Tensor } from 'onnxruntime-node';
import type { RgbaImage } from '../types.js';
import type { RotatedRect } from './geometry.js';

/**
 * PP-OCR text recognition (an SVTR-style CTC network): each detected box is cut out upright, scaled to
 * the model's 48-pixel height, and the per-column character probabilities are decoded greedily.
 */

const INPUT_HEIGHT = 48;
/** Longest crop fed to the model; longer boxes are squeezed (very rare: a line wider than 50 heights). */
const MAX_INPUT_WIDTH = INPUT_HEIGHT * 50;
/** Crops per model call: one. Batching padded crops was measured slower on CPU (8 crops of 1700 px: 2.5 s vs 8 × 0.19 s). */
const BATCH_SIZE = 1;

export interface Recognition {
  text: string;
  /** Mean probability of the decoded characters, 0..1. */
  confidence: number;
  /** For each character of `text`, its centre as a fraction (0..1) of the box width. */
  positions: number[];
}

/**
 * The model's alphabet: index 0 is the CTC blank, then the dictionary file's characters, then a space
 * (the model was trained with spaces as the last class).
 */
export function alphabetFromDictionary(dictionary: string): string[] {
  const characters = dictionary.replace(/\r/g, '').split('\n');
  if (characters.at(-1) === '') characters.pop();
  return ['', ...characters, ' '];
}

export async function recognizeBoxes(
  session: InferenceSession,
  ort: typeof import('onnxruntime-node'),
  alphabet: readonly string[],
  image: RgbaImage,
  boxes: readonly RotatedRect[],
): Promise<Recognition[]> {
  const widths = boxes.map((box) =>
    Math.min(
      MAX_INPUT_WIDTH,
      Math.max(INPUT_HEIGHT / 4, Math.round((box.width * INPUT_HEIGHT) / box.height)),
    ),
  );
  const order = boxes.map((_, index) => index).sort((a, b) => widths[a]! - widths[b]!);
  const results: Recognition[] = new Array(boxes.length);
  for (let start = 0; start < order.length; start += BATCH_SIZE) {
    const batch = order.slice(start, start + BATCH_SIZE);
    // Pad to a multiple of 8: the network's time axis is width / 8.
    const batchWidth = Math.ceil(Math.max(...batch.map((i) => widths[i]!)) / 8) * 8;
    const tensor = batchTensor(
      ort,
      image,
      batch.map((i) => ({ box: boxes[i]!, width: widths[i]! })),
      batchWidth,
    );
    const output = (await session.run({ [session.inputNames[0]!]: tensor }))[session.outputNames[0]!]!;
    const [, steps, classes] = output.dims as [number, number, number];
    const probabilities = output.data as Float32Array;
    const pixels = tensor.data as Float32Array;
    batch.forEach((boxIndex, item) => {
      const width = widths[boxIndex]!;
      const usedSteps = Math.min(steps, Math.ceil((width / batchWidth) * steps));
      const decoded = decodeCtc(probabilities, item * steps * classes, usedSteps, classes, alphabet);
      // Character positions are time steps; convert them to fractions of the box width.
      const stepsPerBox = (width / batchWidth) * steps;
      const positions = decoded.positions.map((step) => Math.min(1, step / stepsPerBox));
      const gaps = blankColumnRuns(pixels, item, batchWidth, width);
      results[boxIndex] = { ...decoded, ...insertWordSpaces(decoded.text, positions, gaps) };
    });
  }
  return results;
}

/** Greedy CTC: best class per time step, repeated classes collapsed, blanks dropped. */
export function decodeCtc(
  probabilities: Float32Array,
  offset: number,
  steps: number,
  classes: number,
  alphabet: readonly string[],
): Recognition {
  let text = '';
  let confidenceSum = 0;
  const positions: number[] = [];
  let previous = 0;
  for (let step = 0; step < steps; step++) {
    const base = offset + step * classes;
    let best = 0;
    let bestProbability = probabilities[base]!;
    for (let c = 1; c < classes; c++) {
      const p = probabilities[base + c]!;
      if (p > bestProbability) {
        bestProbability = p;
        best = c;
      }
    }
    if (best !== 0 && best !== previous) {
      text += alphabet[best] ?? '';
      confidenceSum += bestProbability;
      positions.push(step + 0.5);
    }
    previous = best;
  }
  const characters = positions.length;
  return { text, confidence: characters === 0 ? 0 : confidenceSum / characters, positions };
}

/** Cut each box out upright at 48 px high into one NCHW tensor (BGR, scaled to -1..1, zero padding). */
function batchTensor(
  ort: typeof import('onnxruntime-node'),
  image: RgbaImage,
  items: readonly { box: RotatedRect; width: number }[],
  batchWidth: number,
): Tensor {
  const plane = INPUT_HEIGHT * batchWidth;
  const data = new Float32Array(items.length * 3 * plane);
  items.forEach(({ box, width }, item) => {
    const base = item * 3 * plane;
    const pixel = [0, 0, 0];
    // Downscaling by more than 2× would alias; average a few samples per output pixel instead.
    const samples = Math.min(4, Math.max(1, Math.ceil(box.height / INPUT_HEIGHT)));
    for (let ty = 0; ty < INPUT_HEIGHT; ty++) {
      for (let tx = 0; tx < width; tx++) {
        sampleBox(image, box, (tx + 0.5) / width, (ty + 0.5) / INPUT_HEIGHT, width, samples, pixel);
        const at = ty * batchWidth + tx;
        data[base + at] = pixel[2]! / 127.5 - 1;
        data[base + plane + at] = pixel[1]! / 127.5 - 1;
        data[base + 2 * plane + at] = pixel[0]! / 127.5 - 1;
      }
    }
  });
  return new ort.Tensor('float32', data, [items.length, 3, INPUT_HEIGHT, batchWidth]);
}

/** Average RGB around box-relative position (fu, fv), bilinearly sampled; white outside the image. */
function sampleBox(
  image: RgbaImage,
  box: RotatedRect,
  fu: number,
  fv: number,
  targetWidth: number,
  samples: number,
  out: number[],
): void {
  const stepU = box.width / targetWidth / samples;
  const stepV = box.height / INPUT_HEIGHT / samples;
  let r = 0;
  let g = 0;
  let b = 0;
  for (let sv = 0; sv < samples; sv++) {
    for (let su = 0; su < samples; su++) {
      const u = (fu - 0.5) * box.width + (su - (samples - 1) / 2) * stepU;
      const v = (fv - 0.5) * box.height + (sv - (samples - 1) / 2) * stepV;
      const x = box.cx + u * box.ux - v * box.uy - 0.5;
      const y = box.cy + u * box.uy + v * box.ux - 0.5;
      const x0 = Math.floor(x);
      const y0 = Math.floor(y);
      const ax = x - x0;
      const ay = y - y0;
      for (let channel = 0; channel < 3; channel++) {
        const top = pixelAt(image, x0, y0, channel) * (1 - ax) + pixelAt(image, x0 + 1, y0, channel) * ax;
        const bottom =
          pixelAt(image, x0, y0 + 1, channel) * (1 - ax) + pixelAt(image, x0 + 1, y0 + 1, channel) * ax;
        const value = top * (1 - ay) + bottom * ay;
        if (channel === 0) r += value;
        else if (channel === 1) g += value;
        else b += value;
      }
    }
  }
  const count = samples * samples;
  out[0] = r / count;
  out[1] = g / count;
  out[2] = b / count;
}

function pixelAt(image: RgbaImage, x: number, y: number, channel: number): number {
  if (x < 0 || y < 0 || x >= image.width || y >= image.height) return 255;
  return image.data[(y * image.width + x) * 4 + channel]!;
}

/**
 * A blank run this wide (in model pixels, the crop being 48 high) separates words. Letters of one word
 * are at most ~8 px apart at this scale; a word space (a third of the font size) ~15-20 px.
 */
const MIN_WORD_GAP = 11;

/**
 * The Chinese+English model often drops the spaces between English words. Blank vertical runs in the
 * crop show where they were: returns the centres of runs wider than MIN_WORD_GAP, as fractions of width.
 */
export interface BlankRun {
  /** Centre as a fraction of the crop width. */
  centre: number;
  /** Width in model pixels. */
  width: number;
}

export function blankColumnRuns(
  pixels: Float32Array,
  item: number,
  batchWidth: number,
  width: number,
): BlankRun[] {
  const plane = INPUT_HEIGHT * batchWidth;
  const base = item * 3 * plane;
  // Darkest value per column over the middle rows (edges may hold neighbours' descenders).
  const columnMin = new Float32Array(width).fill(1);
  let darkest = 1;
  let lightest = -1;
  for (let y = Math.floor(INPUT_HEIGHT * 0.1); y < Math.ceil(INPUT_HEIGHT * 0.9); y++) {
    for (let x = 0; x < width; x++) {
      const at = y * batchWidth + x;
      const value = (pixels[base + at]! + pixels[base + plane + at]! + pixels[base + 2 * plane + at]!) / 3;
      if (value < columnMin[x]!) columnMin[x] = value;
      if (value < darkest) darkest = value;
      if (value > lightest) lightest = value;
    }
  }
  if (lightest - darkest < 0.3) return []; // no contrast: nothing to measure
  const threshold = (darkest + lightest) / 2;
  const gaps: BlankRun[] = [];
  let runStart = -1;
  let seenInk = false;
  for (let x = 0; x <= width; x++) {
    const blank = x < width && columnMin[x]! > threshold;
    if (blank && runStart < 0) runStart = x;
    if (!blank) {
      // Runs before the first ink or after the last are margins, not word gaps.
      if (runStart >= 0 && seenInk && x < width && x - runStart >= MIN_WORD_GAP) {
        gaps.push({ centre: (runStart + x) / 2 / width, width: x - runStart });
      }
      runStart = -1;
      if (x < width) seenInk = true;
    }
  }
  return gaps;
}

/** Digits are drawn on equal widths, so a narrow one (1) stands in a wide blank: ask for more. */
const DIGIT_GAP_FACTOR = 1.7;
const NO_SPACE_BEFORE = /[,.:;!?%)\]}]/;
const NO_SPACE_AFTER = /[([{$]/;

/** Put a space between two characters that lie on either side of a word gap, unless one is there. */
export function insertWordSpaces(
  text: string,
  positions: readonly number[],
  gaps: readonly BlankRun[],
): { text: string; positions: number[] } {
  const characters = [...text];
  if (characters.length !== positions.length || gaps.length === 0) return { text, positions: [...positions] };
  let out = '';
  const outPositions: number[] = [];
  let gapIndex = 0;
  for (let i = 0; i < characters.length; i++) {
    const position = positions[i]!;
    const character = characters[i]!;
    while (gapIndex < gaps.length && gaps[gapIndex]!.centre < position) {
      const gap = gaps[gapIndex]!;
      const previous = characters[i - 1];
      if (i > 0 && positions[i - 1]! < gap.centre && isWordBreak(previous!, character, gap.width)) {
        out += ' ';
        outPositions.push(gap.centre);
      }
      gapIndex++;
    }
    out += character;
    outPositions.push(position);
  }
  return { text: out, positions: outPositions };
}

function isWordBreak(previous: string, next: string, gapWidth: number): boolean {
  if (previous === ' ' || next === ' ') return false;
  if (NO_SPACE_BEFORE.test(next) || NO_SPACE_AFTER.test(previous)) return false;
  if (/\d/.test(previous) && /\d/.test(next)) return gapWidth >= MIN_WORD_GAP * DIGIT_GAP_FACTOR;
  return true;
}
