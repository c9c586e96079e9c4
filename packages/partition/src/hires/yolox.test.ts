import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveLayoutAnalyser } from './layout-model.js';
import { constantYoloxModel, yoloxHead } from './test-support/tiny-onnx.js';
import { DOCLAYNET_LABELS, loadYoloxModel, nonMaximumSuppression } from './yolox.js';

const HEIGHT = 64;
const WIDTH = 32;
const TABLE = DOCLAYNET_LABELS.indexOf('Table');
const TITLE = DOCLAYNET_LABELS.indexOf('Title');

// Detections in model-input pixels: a table, a weaker duplicate of it, and a title found at stride 16.
const { head, anchors } = yoloxHead(HEIGHT, WIDTH, [
  {
    stride: 8,
    gx: 1,
    gy: 3,
    box: { x0: 4, y0: 24, x1: 28, y1: 40 },
    objectness: 0.9,
    classIndex: TABLE,
    classScore: 0.8,
  },
  {
    stride: 8,
    gx: 2,
    gy: 3,
    box: { x0: 5, y0: 25, x1: 28, y1: 41 },
    objectness: 0.6,
    classIndex: TABLE,
    classScore: 0.7,
  },
  {
    stride: 16,
    gx: 0,
    gy: 0,
    box: { x0: 2, y0: 2, x1: 30, y1: 10 },
    objectness: 0.95,
    classIndex: TITLE,
    classScore: 0.9,
  },
  // Below the score threshold: dropped.
  {
    stride: 32,
    gx: 0,
    gy: 1,
    box: { x0: 0, y0: 40, x1: 32, y1: 64 },
    objectness: 0.05,
    classIndex: TABLE,
    classScore: 0.9,
  },
]);

let folder: string;
let modelPath: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'docsvc-yolox-'));
  modelPath = join(folder, 'tiny-yolox.onnx');
  await writeFile(modelPath, constantYoloxModel(HEIGHT, WIDTH, head, anchors));
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('YOLOX layout model', () => {
  it('letterboxes, decodes grids and strides, applies NMS and maps boxes back to the page', async () => {
    // A 128×256 page fits the 32×64 input at ratio 0.25: page coordinates are 4× the model's.
    const page = { data: new Uint8Array(128 * 256 * 4).fill(255), width: 128, height: 256 };
    const model = await loadYoloxModel(modelPath, new Uint8Array(await readFile(modelPath)));
    const regions = await model.detect(page);
    expect(regions).toHaveLength(2);
    const [title, table] = regions.sort((a, b) => a.y0 - b.y0);
    expect(title).toMatchObject({ label: 'Title' });
    expect(title!.probability).toBeCloseTo(0.855, 3);
    expect([title!.x0, title!.y0, title!.x1, title!.y1].map((v) => Math.round(v))).toEqual([8, 8, 120, 40]);
    expect(table).toMatchObject({ label: 'Table' });
    expect(table!.probability).toBeCloseTo(0.72, 3);
    expect([table!.x0, table!.y0, table!.x1, table!.y1].map((v) => Math.round(v))).toEqual([
      16, 96, 112, 160,
    ]);
  });

  it('is chosen by hi_res_model_name when it names a readable model file', async () => {
    const analyser = await resolveLayoutAnalyser(modelPath);
    expect(analyser.name).toBe(modelPath);
    const regions = await analyser.analyse({
      image: { data: new Uint8Array(32 * 64 * 4).fill(255), width: 32, height: 64 },
      lines: [],
      rules: [],
    });
    expect(regions.map((r) => r.label).sort()).toEqual(['Table', 'Title']);
  });

  it('refuses names that are neither built in nor a readable file, and files that are not models', async () => {
    await expect(resolveLayoutAnalyser('yolox_quantized')).rejects.toMatchObject({
      code: 'unknown_model',
      message: 'Unknown model type: yolox_quantized',
    });
    const junk = join(folder, 'junk.onnx');
    await writeFile(junk, 'not a model');
    await expect(resolveLayoutAnalyser(junk)).rejects.toMatchObject({ code: 'unknown_model' });
    expect((await resolveLayoutAnalyser(undefined)).name).toBe('docsvc-layout-v1');
    expect((await resolveLayoutAnalyser('docsvc-layout-v1')).name).toBe('docsvc-layout-v1');
  });

  it('keeps the best of overlapping detections of any class', () => {
    const box = { x0: 0, y0: 0, x1: 10, y1: 10 };
    const kept = nonMaximumSuppression([
      { ...box, label: 'Text', probability: 0.5 },
      { ...box, x1: 11, label: 'Table', probability: 0.9 },
      { x0: 20, y0: 20, x1: 30, y1: 30, label: 'Title', probability: 0.3 },
    ]);
    expect(kept.map((d) => d.label)).toEqual(['Table', 'Title']);
  });
});
