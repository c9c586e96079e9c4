import { attribute, floatTensor, type OnnxModel, type OnnxNode, type OnnxTensor } from './model.js';

/**
 * Exact rewrites of the element-wise chains that PaddlePaddle's ONNX export leaves between
 * convolutions, which ONNX Runtime does not fuse by itself.
 *
 * PP-OCRv4's backbone (PP-LCNetV3) ends every convolution with a "learnable affine block" (y·s + b, two
 * scalars) and a hard-swish written as four operators (x·clip(x+3, 0, 6)/6), often followed by a second
 * affine block. Exported as is, each convolution is followed by seven element-wise passes over the
 * feature map, and because ONNX Runtime's blocked (NCHWc) convolutions cannot carry scalar Mul/Add,
 * every convolution also converts its input and output between layouts. Measured on PP-OCRv4 rec, these
 * passes were two thirds of the model's time.
 *
 * The rewrites below change only how the same function is computed (results agree to float rounding):
 * - affine after a convolution → folded into its weights and bias;
 * - hard-swish → x · HardSigmoid(x), which ONNX Runtime fuses into the convolution as its activation;
 * - affine before a 1×1 unpadded convolution → folded into that convolution's weights and bias;
 * - any other affine before a convolution → a 1×1 depthwise convolution, which stays in the blocked
 *   layout (cheaper than two element-wise passes plus two layout conversions).
 */

export interface FusionCounts {
  affineAfterConv: number;
  hardSwish: number;
  affineIntoPointwiseConv: number;
  affineAsDepthwiseConv: number;
}

export function fuseElementwiseChains(model: OnnxModel): FusionCounts {
  const counts: FusionCounts = {
    affineAfterConv: runPass(model, foldAffineAfterConv),
    hardSwish: runPass(model, hardSwishAsHardSigmoid),
    affineIntoPointwiseConv: runPass(model, foldAffineIntoPointwiseConv),
    affineAsDepthwiseConv: runPass(model, affineAsDepthwiseConv),
  };
  removeUnusedConstants(model);
  return counts;
}

/** What a pass sees of the graph: constants, and who consumes each value. */
class GraphView {
  private readonly constants = new Map<string, OnnxTensor>();
  private readonly consumers = new Map<string, OnnxNode[]>();
  private readonly graphOutputs: Set<string>;
  private counter = 0;

  constructor(private readonly model: OnnxModel) {
    for (const [name, tensor] of model.initializers) this.constants.set(name, tensor);
    for (const node of model.nodes) {
      const value = attribute(node, 'value');
      if (node.opType === 'Constant' && value?.kind === 'tensor')
        this.constants.set(node.outputs[0]!, value.value);
      for (const input of node.inputs) {
        const list = this.consumers.get(input);
        if (list) list.push(node);
        else this.consumers.set(input, [node]);
      }
    }
    this.graphOutputs = new Set(model.outputs.map((output) => output.name));
  }

  /** The only node reading `value`, if it is of type `opType` and the value is not a graph output. */
  soleConsumer(value: string, opType: string): OnnxNode | undefined {
    const list = this.consumers.get(value);
    if (list?.length !== 1 || this.graphOutputs.has(value)) return undefined;
    return list[0]!.opType === opType && list[0]!.domain === '' ? list[0] : undefined;
  }

  floats(name: string): { dims: number[]; values: Float32Array } | undefined {
    const tensor = this.constants.get(name);
    return tensor?.floats ? { dims: tensor.dims, values: tensor.floats } : undefined;
  }

  /** A one-element float constant's value. */
  scalar(name: string | undefined): number | undefined {
    if (name === undefined) return undefined;
    const tensor = this.floats(name);
    return tensor?.values.length === 1 ? tensor.values[0] : undefined;
  }

  /** For a binary node with one scalar constant input: that scalar and the other input. */
  scalarOperand(node: OnnxNode): { scalar: number; other: string } | undefined {
    if (node.inputs.length !== 2) return undefined;
    for (const [index, input] of node.inputs.entries()) {
      const scalar = this.scalar(input);
      if (scalar !== undefined) return { scalar, other: node.inputs[1 - index]! };
    }
    return undefined;
  }

  /** A new Constant node holding `values`, with a name no other value has. */
  constant(hint: string, dims: number[], values: Float32Array): OnnxNode {
    const name = `${hint}__fused${this.counter++}`;
    return {
      opType: 'Constant',
      domain: '',
      name,
      inputs: [],
      outputs: [name],
      attributes: [{ name: 'value', kind: 'tensor', value: floatTensor(name, dims, values) }],
    };
  }

  get opsetVersion(): number {
    return this.model.opsetVersion;
  }
}

/**
 * A pass returns, for a node where its pattern starts, the pattern's nodes and their replacement. The
 * replacement takes the place of the first pattern node, so its inputs must be available there.
 */
type Pass = (node: OnnxNode, view: GraphView) => { matched: OnnxNode[]; replacement: OnnxNode[] } | undefined;

function runPass(model: OnnxModel, pass: Pass): number {
  const view = new GraphView(model);
  const removed = new Set<OnnxNode>();
  const replacements = new Map<OnnxNode, OnnxNode[]>();
  for (const node of model.nodes) {
    if (removed.has(node)) continue;
    const match = pass(node, view);
    if (!match || match.matched.some((n) => removed.has(n))) continue;
    for (const n of match.matched) removed.add(n);
    replacements.set(match.matched[0]!, match.replacement);
  }
  model.nodes = model.nodes.flatMap((node) => replacements.get(node) ?? (removed.has(node) ? [] : [node]));
  return replacements.size;
}

/** A scalar Mul followed by a scalar Add (the affine block), starting at `mul`. */
function affineChain(mul: OnnxNode, view: GraphView) {
  if (mul.opType !== 'Mul' || mul.domain !== '') return undefined;
  const scale = view.scalarOperand(mul);
  const add = scale && view.soleConsumer(mul.outputs[0]!, 'Add');
  const shift = add && view.scalarOperand(add);
  if (!scale || !add || !shift) return undefined;
  return { mul, add, input: scale.other, scale: scale.scalar, shift: shift.scalar };
}

interface ConvWeights {
  weights: Float32Array;
  /** [output channels, input channels / group, kernel height, kernel width] */
  dims: number[];
  bias: Float32Array;
}

function convWeights(conv: OnnxNode, view: GraphView): ConvWeights | undefined {
  const weights = view.floats(conv.inputs[1] ?? '');
  if (weights?.dims.length !== 4) return undefined;
  const outputChannels = weights.dims[0]!;
  const bias = conv.inputs[2]
    ? view.floats(conv.inputs[2])
    : { dims: [outputChannels], values: new Float32Array(outputChannels) };
  if (!bias || bias.values.length !== outputChannels) return undefined;
  return { weights: weights.values, dims: weights.dims, bias: bias.values };
}

function withWeights(
  conv: OnnxNode,
  input: string,
  output: string,
  weights: OnnxNode,
  bias: OnnxNode,
): OnnxNode {
  return {
    ...conv,
    raw: undefined,
    inputs: [input, weights.outputs[0]!, bias.outputs[0]!],
    outputs: [output],
  };
}

/** Conv → ·s → +b  ⇒  Conv with weights·s and bias·s + b. */
const foldAffineAfterConv: Pass = (conv, view) => {
  if (conv.opType !== 'Conv' || conv.domain !== '') return undefined;
  const mul = view.soleConsumer(conv.outputs[0]!, 'Mul');
  const chain = mul && affineChain(mul, view);
  const current = convWeights(conv, view);
  if (!chain || !current) return undefined;
  const weights = current.weights.map((w) => w * chain.scale);
  const bias = current.bias.map((b) => b * chain.scale + chain.shift);
  const weightNode = view.constant(conv.name || conv.outputs[0]!, current.dims, weights);
  const biasNode = view.constant(conv.name || conv.outputs[0]!, [bias.length], bias);
  return {
    matched: [conv, chain.mul, chain.add],
    replacement: [
      weightNode,
      biasNode,
      withWeights(conv, conv.inputs[0]!, chain.add.outputs[0]!, weightNode, biasNode),
    ],
  };
};

/** The bounds of a Clip: attributes before opset 11, optional constant inputs from 11 on. */
function clipBounds(clip: OnnxNode, view: GraphView): [number, number] | undefined {
  if (view.opsetVersion < 11) {
    const min = attribute(clip, 'min');
    const max = attribute(clip, 'max');
    return [
      min?.kind === 'float' ? min.value : Number.NEGATIVE_INFINITY,
      max?.kind === 'float' ? max.value : Number.POSITIVE_INFINITY,
    ];
  }
  const min = clip.inputs[1] ? view.scalar(clip.inputs[1]) : Number.NEGATIVE_INFINITY;
  const max = clip.inputs[2] ? view.scalar(clip.inputs[2]) : Number.POSITIVE_INFINITY;
  return min === undefined || max === undefined ? undefined : [min, max];
}

/** x+3 → clip(0, 6) → ·x → /6  ⇒  x · HardSigmoid(x; α = 1/6, β = 1/2). */
const hardSwishAsHardSigmoid: Pass = (add, view) => {
  if (add.opType !== 'Add' || add.domain !== '') return undefined;
  const plusThree = view.scalarOperand(add);
  if (plusThree?.scalar !== 3) return undefined;
  const x = plusThree.other;
  const clip = view.soleConsumer(add.outputs[0]!, 'Clip');
  const bounds = clip && clipBounds(clip, view);
  if (!clip || bounds?.[0] !== 0 || bounds[1] !== 6) return undefined;
  const times = view.soleConsumer(clip.outputs[0]!, 'Mul');
  if (!times?.inputs.includes(x)) return undefined;
  const divide = view.soleConsumer(times.outputs[0]!, 'Div');
  if (!divide || divide.inputs[0] !== times.outputs[0] || view.scalar(divide.inputs[1]) !== 6)
    return undefined;
  const output = divide.outputs[0]!;
  const gate: OnnxNode = {
    opType: 'HardSigmoid',
    domain: '',
    name: `${output}__gate`,
    inputs: [x],
    outputs: [`${output}__gate`],
    attributes: [
      { name: 'alpha', kind: 'float', value: 1 / 6 },
      { name: 'beta', kind: 'float', value: 0.5 },
    ],
  };
  const product: OnnxNode = {
    opType: 'Mul',
    domain: '',
    name: output,
    inputs: [x, gate.outputs[0]!],
    outputs: [output],
    attributes: [],
  };
  return { matched: [add, clip, times, divide], replacement: [gate, product] };
};

function isUnpadded(conv: OnnxNode): boolean {
  const pads = attribute(conv, 'pads');
  const autoPad = attribute(conv, 'auto_pad');
  const noPads = !pads || (pads.kind === 'ints' && pads.value.every((p) => p === 0));
  return noPads && (!autoPad || (autoPad.kind === 'string' && !autoPad.value.startsWith('SAME')));
}

function group(conv: OnnxNode): number {
  const value = attribute(conv, 'group');
  return value?.kind === 'int' ? value.value : 1;
}

/** ·s → +b → 1×1 Conv (no padding, one group)  ⇒  Conv with weights·s and bias + b·Σweights. */
const foldAffineIntoPointwiseConv: Pass = (mul, view) => {
  const chain = affineChain(mul, view);
  const conv = chain && view.soleConsumer(chain.add.outputs[0]!, 'Conv');
  const current = conv && convWeights(conv, view);
  if (!chain || !conv || !current || conv.inputs[0] !== chain.add.outputs[0]) return undefined;
  const [outputChannels, inputChannels, kernelHeight, kernelWidth] = current.dims as [
    number,
    number,
    number,
    number,
  ];
  if (kernelHeight !== 1 || kernelWidth !== 1 || group(conv) !== 1 || !isUnpadded(conv)) return undefined;
  const weights = current.weights.map((w) => w * chain.scale);
  const bias = Float32Array.from(current.bias);
  for (let o = 0; o < outputChannels; o++) {
    let sum = 0;
    for (let i = 0; i < inputChannels; i++) sum += current.weights[o * inputChannels + i]!;
    bias[o] = bias[o]! + chain.shift * sum;
  }
  const weightNode = view.constant(conv.name || conv.outputs[0]!, current.dims, weights);
  const biasNode = view.constant(conv.name || conv.outputs[0]!, [outputChannels], bias);
  return {
    matched: [chain.mul, chain.add, conv],
    replacement: [
      weightNode,
      biasNode,
      withWeights(conv, chain.input, conv.outputs[0]!, weightNode, biasNode),
    ],
  };
};

/** ·s → +b → Conv  ⇒  a 1×1 depthwise Conv (weights s, bias b per channel) → Conv. */
const affineAsDepthwiseConv: Pass = (mul, view) => {
  const chain = affineChain(mul, view);
  const conv = chain && view.soleConsumer(chain.add.outputs[0]!, 'Conv');
  const next = conv && convWeights(conv, view);
  if (!chain || !conv || !next || conv.inputs[0] !== chain.add.outputs[0]) return undefined;
  const channels = next.dims[1]! * group(conv);
  const weightNode = view.constant(
    chain.add.outputs[0]!,
    [channels, 1, 1, 1],
    new Float32Array(channels).fill(chain.scale),
  );
  const biasNode = view.constant(
    chain.add.outputs[0]!,
    [channels],
    new Float32Array(channels).fill(chain.shift),
  );
  const depthwise: OnnxNode = {
    opType: 'Conv',
    domain: '',
    name: chain.add.outputs[0]!,
    inputs: [chain.input, weightNode.outputs[0]!, biasNode.outputs[0]!],
    outputs: [chain.add.outputs[0]!],
    attributes: [
      { name: 'group', kind: 'int', value: channels },
      { name: 'kernel_shape', kind: 'ints', value: [1, 1] },
    ],
  };
  return { matched: [chain.mul, chain.add], replacement: [weightNode, biasNode, depthwise] };
};

function removeUnusedConstants(model: OnnxModel): void {
  const used = new Set(model.outputs.map((output) => output.name));
  for (const node of model.nodes) for (const input of node.inputs) used.add(input);
  model.nodes = model.nodes.filter((node) => node.opType !== 'Constant' || used.has(node.outputs[0]!));
  for (const name of model.initializers.keys()) if (!used.has(name)) model.initializers.delete(name);
}
