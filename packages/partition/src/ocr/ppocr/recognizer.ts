import type { InferenceSession } from 'onnxruntime-node';
import type { RgbaImage } from '../types.js';
import { cropBoxInto } from './crop.js';
import type { RotatedRect } from './geometry.js';
import { blankColumnRuns, insertWordSpaces } from './word-gaps.js';

/**
 * PP-OCR text recognition (an SVTR-style CTC network): each detected box is cut out upright, scaled to
 * the model's 48-pixel height, and the best class per time step (computed inside the model, see
 * models.ts) is decoded greedily.
 *
 * One crop per model call: the network's cost is linear in crop width and batching padded crops saves
 * nothing on CPU (measured: 4 crops of 1600 px in one call cost 1.3× four single calls), while padding
 * adds work. The input buffer is reused from crop to crop.
 */

export const INPUT_HEIGHT = 48;
/** Longest crop fed to the model; longer boxes are squeezed (very rare: a line wider than 50 heights). */
const MAX_INPUT_WIDTH = INPUT_HEIGHT * 50;
/** The network's time axis is the input width / 8. */
const WIDTH_STEP = 8;

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

/** Crop width at the model's height, keeping the box's aspect ratio. */
export function cropWidth(box: RotatedRect): number {
  return Math.min(
    MAX_INPUT_WIDTH,
    Math.max(INPUT_HEIGHT / 4, Math.round((box.width * INPUT_HEIGHT) / box.height)),
  );
}

export async function recognizeBoxes(
  session: InferenceSession,
  ort: typeof import('onnxruntime-node'),
  alphabet: readonly string[],
  image: RgbaImage,
  boxes: readonly RotatedRect[],
): Promise<Recognition[]> {
  const [bestClassOutput, bestProbabilityOutput] = session.outputNames as [string, string];
  const widths = boxes.map(cropWidth);
  const widest = Math.ceil(Math.max(0, ...widths) / WIDTH_STEP) * WIDTH_STEP;
  const buffer = new Float32Array(3 * INPUT_HEIGHT * widest);
  const results: Recognition[] = [];
  for (const [index, box] of boxes.entries()) {
    const width = widths[index]!;
    const paddedWidth = Math.ceil(width / WIDTH_STEP) * WIDTH_STEP;
    const pixels = buffer.subarray(0, 3 * INPUT_HEIGHT * paddedWidth);
    // Padding columns are 0, mid-grey after normalisation, as PaddleOCR pads its batches.
    pixels.fill(0);
    cropBoxInto(image, box, width, INPUT_HEIGHT, pixels, 0, paddedWidth);
    const tensor = new ort.Tensor('float32', pixels, [1, 3, INPUT_HEIGHT, paddedWidth]);
    const output = await session.run({ [session.inputNames[0]!]: tensor });
    const bestClass = output[bestClassOutput]!.data as BigInt64Array;
    const bestProbability = output[bestProbabilityOutput]!.data as Float32Array;
    const steps = bestClass.length;
    // Steps covering padding only are not decoded.
    const stepsPerBox = (width / paddedWidth) * steps;
    const decoded = decodeCtc(bestClass, bestProbability, Math.min(steps, Math.ceil(stepsPerBox)), alphabet);
    // Character positions are time steps; convert them to fractions of the box width.
    const positions = decoded.positions.map((step) => Math.min(1, step / stepsPerBox));
    const gaps = blankColumnRuns(pixels, 0, paddedWidth, width);
    results.push({ ...decoded, ...insertWordSpaces(decoded.text, positions, gaps) });
  }
  return results;
}

/** Greedy CTC on the best class per time step: repeated classes collapsed, blanks (class 0) dropped. */
export function decodeCtc(
  bestClass: ArrayLike<bigint | number>,
  bestProbability: ArrayLike<number>,
  steps: number,
  alphabet: readonly string[],
): Recognition {
  let text = '';
  let confidenceSum = 0;
  const positions: number[] = [];
  let previous = 0;
  for (let step = 0; step < steps; step++) {
    const best = Number(bestClass[step]!);
    if (best !== 0 && best !== previous) {
      text += alphabet[best] ?? '';
      confidenceSum += bestProbability[step]!;
      positions.push(step + 0.5);
    }
    previous = best;
  }
  const characters = positions.length;
  return { text, confidence: characters === 0 ? 0 : confidenceSum / characters, positions };
}
