import { floatTensor, type OnnxModel, type OnnxNode } from '../onnx-graph/model.js';
import { MessageWriter, readFields } from '../onnx-graph/protobuf.js';

/**
 * Small ONNX graphs for tests, written with the same codec the rewrites use: one float input `x` of
 * rank 4 (dynamic sizes) and one float output.
 */

let counter = 0;

export function constantNode(dims: number[], values: number[] | Float32Array): OnnxNode {
  const name = `const${counter++}`;
  return {
    opType: 'Constant',
    domain: '',
    name,
    inputs: [],
    outputs: [name],
    attributes: [
      { name: 'value', kind: 'tensor', value: floatTensor(name, dims, Float32Array.from(values)) },
    ],
  };
}

export function opNode(
  opType: string,
  inputs: string[],
  output: string,
  attributes: OnnxNode['attributes'] = [],
): OnnxNode {
  return { opType, domain: '', name: output, inputs, outputs: [output], attributes };
}

/** Deterministic pseudo-random values in -1..1. */
export function randomValues(count: number, seed: number): Float32Array {
  const values = new Float32Array(count);
  let state = seed >>> 0 || 1;
  for (let i = 0; i < count; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    values[i] = (state / 0xffffffff) * 2 - 1;
  }
  return values;
}

function valueInfo(name: string): Uint8Array {
  const shape = new MessageWriter();
  for (let i = 0; i < 4; i++) shape.bytes(1, new MessageWriter().string(2, `d${i}`).finish());
  const tensorType = new MessageWriter().int64(1, 1).bytes(2, shape.finish()).finish();
  return new MessageWriter()
    .string(1, name)
    .bytes(2, new MessageWriter().bytes(1, tensorType).finish())
    .finish();
}

export function buildModel(nodes: OnnxNode[], output: string, opsetVersion: number): OnnxModel {
  const opset = new MessageWriter().string(1, '').int64(2, opsetVersion).finish();
  return {
    opsetVersion,
    nodes,
    initializers: new Map(),
    outputs: [{ name: output, raw: valueInfo(output) }],
    otherModelFields: readFields(new MessageWriter().int64(1, 7).bytes(8, opset).finish()),
    otherGraphFields: readFields(new MessageWriter().string(2, 'test').bytes(11, valueInfo('x')).finish()),
  };
}
