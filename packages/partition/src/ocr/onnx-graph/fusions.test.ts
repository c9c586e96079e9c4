import { describe, expect, it } from 'vitest';
import { loadOnnxRuntime } from '../onnx.js';
import { buildModel, constantNode, opNode, randomValues } from '../test-support/onnx-builder.js';
import { fuseElementwiseChains } from './fusions.js';
import { type OnnxModel, type OnnxNode, readModel, writeModel } from './model.js';

const CHANNELS_IN = 4;
const CHANNELS = 8;

/** (x + 3) clipped to 0..6, times x, over 6: hard-swish as PaddlePaddle exports it. */
function hardSwish(input: string, output: string, opset: number): OnnxNode[] {
  const three = constantNode([], [3]);
  const six = constantNode([], [6]);
  const nodes = [three, six, opNode('Add', [input, three.outputs[0]!], `${output}_plus3`)];
  if (opset < 11) {
    nodes.push(
      opNode('Clip', [`${output}_plus3`], `${output}_clip`, [
        { name: 'min', kind: 'float', value: 0 },
        { name: 'max', kind: 'float', value: 6 },
      ]),
    );
  } else {
    const low = constantNode([], [0]);
    const high = constantNode([], [6]);
    nodes.push(
      low,
      high,
      opNode('Clip', [`${output}_plus3`, low.outputs[0]!, high.outputs[0]!], `${output}_clip`),
    );
  }
  nodes.push(
    opNode('Mul', [input, `${output}_clip`], `${output}_times`),
    opNode('Div', [`${output}_times`, six.outputs[0]!], output),
  );
  return nodes;
}

/** y·s + b with scalar constants (PP-LCNetV3's learnable affine block); the scale comes first, as exported. */
function affine(input: string, output: string, scale: number, shift: number): OnnxNode[] {
  const s = constantNode([1], [scale]);
  const b = constantNode([1], [shift]);
  return [
    s,
    b,
    opNode('Mul', [s.outputs[0]!, input], `${output}_scaled`),
    opNode('Add', [`${output}_scaled`, b.outputs[0]!], output),
  ];
}

function conv(
  input: string,
  output: string,
  dims: [number, number, number, number],
  seed: number,
  group = 1,
): OnnxNode[] {
  const weights = constantNode(
    dims,
    randomValues(
      dims.reduce((a, b) => a * b, 1),
      seed,
    ),
  );
  const bias = constantNode([dims[0]], randomValues(dims[0], seed + 1));
  const pad = (dims[2] - 1) / 2;
  return [
    weights,
    bias,
    opNode('Conv', [input, weights.outputs[0]!, bias.outputs[0]!], output, [
      { name: 'group', kind: 'int', value: group },
      { name: 'kernel_shape', kind: 'ints', value: [dims[2], dims[3]] },
      { name: 'pads', kind: 'ints', value: [pad, pad, pad, pad] },
    ]),
  ];
}

/** Two PP-LCNetV3 blocks: 3×3 conv, affine, hard-swish, affine, 1×1 conv, affine, hard-swish, affine, depthwise 3×3 conv. */
function lcnetBlocks(opset: number): OnnxModel {
  const nodes = [
    ...conv('x', 'c1', [CHANNELS, CHANNELS_IN, 3, 3], 1),
    ...affine('c1', 'a1', 1.4, 0.6),
    ...hardSwish('a1', 'h1', opset),
    ...affine('h1', 'a2', 0.17, -0.2),
    ...conv('a2', 'c2', [CHANNELS, CHANNELS, 1, 1], 3),
    ...affine('c2', 'a3', 2.1, 1.05),
    ...hardSwish('a3', 'h2', opset),
    ...affine('h2', 'a4', 0.18, -0.2),
    ...conv('a4', 'y', [CHANNELS, 1, 3, 3], 5, CHANNELS),
  ];
  return buildModel(nodes, 'y', opset);
}

async function run(model: Uint8Array, input: Float32Array, dims: number[]): Promise<Float32Array> {
  const ort = await loadOnnxRuntime();
  const session = await ort.InferenceSession.create(model, {
    graphOptimizationLevel: 'all',
    intraOpNumThreads: 1,
  });
  const output = await session.run({ x: new ort.Tensor('float32', input, dims) });
  await session.release();
  return output.y!.data as Float32Array;
}

function maxDifference(a: Float32Array, b: Float32Array): number {
  expect(a.length).toBe(b.length);
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i]! - b[i]!));
  return max;
}

const opTypes = (model: OnnxModel) => model.nodes.filter((n) => n.opType !== 'Constant').map((n) => n.opType);

describe('fuseElementwiseChains', () => {
  it.each([9, 11])('computes the same function with fewer passes (opset %i)', async (opset) => {
    const original = writeModel(lcnetBlocks(opset));
    const model = readModel(original);
    expect(fuseElementwiseChains(model)).toEqual({
      affineAfterConv: 2,
      hardSwish: 2,
      affineIntoPointwiseConv: 1,
      affineAsDepthwiseConv: 1,
    });
    // 3×3 conv + gate, pointwise conv + gate, affine as 1×1 depthwise conv, depthwise conv.
    expect(opTypes(model)).toEqual([
      'Conv',
      'HardSigmoid',
      'Mul',
      'Conv',
      'HardSigmoid',
      'Mul',
      'Conv',
      'Conv',
    ]);
    const dims = [1, CHANNELS_IN, 7, 9];
    const input = randomValues(
      dims.reduce((a, b) => a * b, 1),
      42,
    ).map((v) => v * 4);
    const expected = await run(original, input, dims);
    const actual = await run(writeModel(model), input, dims);
    expect(Math.max(...expected.map(Math.abs))).toBeGreaterThan(0.1); // a real signal, not all zeros
    expect(maxDifference(expected, actual)).toBeLessThan(1e-4);
  });

  it('leaves a chain alone when an intermediate value is read elsewhere or is a graph output', async () => {
    const nodes = [
      ...conv('x', 'c1', [CHANNELS, CHANNELS_IN, 1, 1], 7),
      ...affine('c1', 'a1', 2, 1),
      // c1 is read twice: folding the affine into the conv would change the second reader's input.
      opNode('Add', ['a1', 'c1'], 'y'),
    ];
    const original = writeModel(buildModel(nodes, 'y', 11));
    const model = readModel(original);
    expect(fuseElementwiseChains(model).affineAfterConv).toBe(0);
    const dims = [1, CHANNELS_IN, 3, 3];
    const input = randomValues(36, 3);
    expect(maxDifference(await run(original, input, dims), await run(writeModel(model), input, dims))).toBe(
      0,
    );
  });

  it('does not fold an affine into a padded convolution (zero padding would change meaning)', () => {
    const nodes = [...affine('x', 'a', 0.5, 0.25), ...conv('a', 'y', [CHANNELS, CHANNELS_IN, 3, 3], 9)];
    const model = readModel(writeModel(buildModel(nodes, 'y', 11)));
    const counts = fuseElementwiseChains(model);
    expect(counts.affineIntoPointwiseConv).toBe(0);
    expect(counts.affineAsDepthwiseConv).toBe(1);
  });

  it('writes untouched models back byte for byte', () => {
    const bytes = writeModel(lcnetBlocks(11));
    expect(writeModel(readModel(bytes))).toEqual(bytes);
  });
});
