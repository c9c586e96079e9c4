import {
  asInt64,
  decodeString,
  MessageWriter,
  readFields,
  readPackedFloats,
  readPackedInt64,
  type WireField,
  WireType,
} from './protobuf.js';

/**
 * An ONNX model read far enough to rewrite its main graph: nodes, constant tensors and graph outputs are
 * decoded; everything else (opset imports, metadata, value infos, node fields we do not use) is kept as
 * the bytes it was read from. Nodes read from the file and not replaced are written back byte for byte.
 *
 * Field numbers are those of onnx.proto (ModelProto.graph = 7, GraphProto.node = 1, ...).
 */

export const TENSOR_FLOAT = 1;
export const TENSOR_INT64 = 7;

export interface OnnxTensor {
  name: string;
  dims: number[];
  dataType: number;
  /** The values of a float tensor; undefined for other types (they are only carried, never read). */
  floats: Float32Array | undefined;
  /** The encoded TensorProto, when this tensor was read from the file. */
  raw: Uint8Array | undefined;
}

export type OnnxAttribute =
  | { name: string; kind: 'float'; value: number }
  | { name: string; kind: 'int'; value: number }
  | { name: string; kind: 'string'; value: string }
  | { name: string; kind: 'floats'; value: number[] }
  | { name: string; kind: 'ints'; value: number[] }
  | { name: string; kind: 'tensor'; value: OnnxTensor }
  | { name: string; kind: 'other'; raw: Uint8Array };

export interface OnnxNode {
  opType: string;
  domain: string;
  name: string;
  inputs: string[];
  outputs: string[];
  attributes: OnnxAttribute[];
  /** The encoded NodeProto of a node read from the file; rewrites make new nodes, which have none. */
  raw?: Uint8Array;
}

export interface GraphOutput {
  name: string;
  /** The encoded ValueInfoProto (name and type) when read from the file. */
  raw?: Uint8Array;
  /** For new outputs: the element type (TENSOR_FLOAT, TENSOR_INT64); the shape is left open. */
  elementType?: number;
}

export interface OnnxModel {
  /** Version of the default ("ai.onnx") operator set the graph is written against. */
  opsetVersion: number;
  nodes: OnnxNode[];
  /** Graph initializers by name (weights stored outside Constant nodes). */
  initializers: Map<string, OnnxTensor>;
  outputs: GraphOutput[];
  /** Fields of ModelProto other than the graph, and of GraphProto other than nodes and outputs. */
  otherModelFields: WireField[];
  otherGraphFields: WireField[];
}

function readTensor(bytes: Uint8Array): OnnxTensor {
  const dims: number[] = [];
  let name = '';
  let dataType = 0;
  let rawData: Uint8Array | undefined;
  const floatData: number[] = [];
  for (const field of readFields(bytes)) {
    if (field.number === 1) dims.push(...readPackedInt64(field));
    else if (field.number === 2) dataType = Number(field.varint);
    else if (field.number === 4) floatData.push(...readPackedFloats(field));
    else if (field.number === 8) name = decodeString(field.bytes);
    else if (field.number === 9) rawData = field.bytes;
  }
  let floats: Float32Array | undefined;
  if (dataType === TENSOR_FLOAT) {
    if (rawData) {
      // Copy: the view may not be 4-byte aligned, and the values must outlive edits.
      floats = new Float32Array(rawData.length / 4);
      new Uint8Array(floats.buffer).set(rawData);
    } else floats = Float32Array.from(floatData);
  }
  return { name, dims, dataType, floats, raw: bytes };
}

function readAttribute(bytes: Uint8Array): OnnxAttribute {
  const fields = readFields(bytes);
  const name = decodeString(fields.find((field) => field.number === 1)?.bytes ?? new Uint8Array());
  const type = Number(fields.find((field) => field.number === 20)?.varint ?? 0n);
  const values = (number: number) => fields.filter((field) => field.number === number);
  switch (type) {
    case 1:
      return { name, kind: 'float', value: readPackedFloats(values(2)[0]!)[0] ?? 0 };
    case 2:
      return { name, kind: 'int', value: asInt64(values(3)[0]?.varint ?? 0n) };
    case 3:
      return { name, kind: 'string', value: decodeString(values(4)[0]?.bytes ?? new Uint8Array()) };
    case 4:
      return { name, kind: 'tensor', value: readTensor(values(5)[0]!.bytes) };
    case 6:
      return { name, kind: 'floats', value: values(7).flatMap(readPackedFloats) };
    case 7:
      return { name, kind: 'ints', value: values(8).flatMap(readPackedInt64) };
    default:
      return { name, kind: 'other', raw: bytes };
  }
}

function readNode(bytes: Uint8Array): OnnxNode {
  const node: OnnxNode = {
    opType: '',
    domain: '',
    name: '',
    inputs: [],
    outputs: [],
    attributes: [],
    raw: bytes,
  };
  for (const field of readFields(bytes)) {
    if (field.number === 1) node.inputs.push(decodeString(field.bytes));
    else if (field.number === 2) node.outputs.push(decodeString(field.bytes));
    else if (field.number === 3) node.name = decodeString(field.bytes);
    else if (field.number === 4) node.opType = decodeString(field.bytes);
    else if (field.number === 5) node.attributes.push(readAttribute(field.bytes));
    else if (field.number === 7) node.domain = decodeString(field.bytes);
  }
  return node;
}

export function readModel(bytes: Uint8Array): OnnxModel {
  const model: OnnxModel = {
    opsetVersion: 1,
    nodes: [],
    initializers: new Map(),
    outputs: [],
    otherModelFields: [],
    otherGraphFields: [],
  };
  let graphSeen = false;
  for (const field of readFields(bytes)) {
    if (field.number === 7 && field.wireType === WireType.Bytes) {
      graphSeen = true;
      for (const graphField of readFields(field.bytes)) {
        if (graphField.number === 1) model.nodes.push(readNode(graphField.bytes));
        else if (graphField.number === 12) {
          const name = readFields(graphField.bytes).find((f) => f.number === 1);
          model.outputs.push({ name: decodeString(name?.bytes ?? new Uint8Array()), raw: graphField.bytes });
        } else {
          if (graphField.number === 5) {
            const tensor = readTensor(graphField.bytes);
            model.initializers.set(tensor.name, tensor);
          }
          model.otherGraphFields.push(graphField);
        }
      }
    } else {
      if (field.number === 8) {
        const opset = readFields(field.bytes);
        const domain = decodeString(opset.find((f) => f.number === 1)?.bytes ?? new Uint8Array());
        if (domain === '' || domain === 'ai.onnx')
          model.opsetVersion = asInt64(opset.find((f) => f.number === 2)?.varint ?? 1n);
      }
      model.otherModelFields.push(field);
    }
  }
  if (!graphSeen) throw new Error('not an ONNX model: no graph');
  return model;
}

function writeTensor(tensor: OnnxTensor): Uint8Array {
  if (tensor.raw) return tensor.raw;
  const data = tensor.floats ?? new Float32Array();
  return new MessageWriter()
    .packedInt64(1, tensor.dims)
    .int64(2, tensor.dataType)
    .string(8, tensor.name)
    .bytes(9, new Uint8Array(data.buffer, data.byteOffset, data.byteLength))
    .finish();
}

function writeAttribute(attribute: OnnxAttribute): Uint8Array {
  if (attribute.kind === 'other') return attribute.raw;
  const writer = new MessageWriter().string(1, attribute.name);
  switch (attribute.kind) {
    case 'float':
      return writer.float(2, attribute.value).int64(20, 1).finish();
    case 'int':
      return writer.int64(3, attribute.value).int64(20, 2).finish();
    case 'string':
      return writer.string(4, attribute.value).int64(20, 3).finish();
    case 'tensor':
      return writer.bytes(5, writeTensor(attribute.value)).int64(20, 4).finish();
    case 'floats':
      return writer.packedFloats(7, attribute.value).int64(20, 6).finish();
    case 'ints':
      return writer.packedInt64(8, attribute.value).int64(20, 7).finish();
  }
}

function writeNode(node: OnnxNode): Uint8Array {
  if (node.raw) return node.raw;
  const writer = new MessageWriter();
  for (const input of node.inputs) writer.string(1, input);
  for (const output of node.outputs) writer.string(2, output);
  if (node.name) writer.string(3, node.name);
  writer.string(4, node.opType);
  for (const attribute of node.attributes) writer.bytes(5, writeAttribute(attribute));
  if (node.domain) writer.string(7, node.domain);
  return writer.finish();
}

function writeOutput(output: GraphOutput): Uint8Array {
  if (output.raw) return output.raw;
  // ValueInfoProto { name, type: TypeProto { tensor_type: { elem_type } } }; no shape: it is inferred.
  const tensorType = new MessageWriter().int64(1, output.elementType ?? TENSOR_FLOAT).finish();
  const type = new MessageWriter().bytes(1, tensorType).finish();
  return new MessageWriter().string(1, output.name).bytes(2, type).finish();
}

export function writeModel(model: OnnxModel): Uint8Array {
  const graph = new MessageWriter();
  for (const node of model.nodes) graph.bytes(1, writeNode(node));
  // Initializers dropped from the map (no longer used after a rewrite) are left out.
  const kept = new Set([...model.initializers.values()].map((tensor) => tensor.raw));
  for (const field of model.otherGraphFields) {
    if (field.number === 5 && !kept.has(field.bytes)) continue;
    graph.raw(field);
  }
  for (const output of model.outputs) graph.bytes(12, writeOutput(output));
  const writer = new MessageWriter();
  for (const field of model.otherModelFields) writer.raw(field);
  writer.bytes(7, graph.finish());
  return writer.finish();
}

/** A new float tensor (for constants made by a rewrite). */
export function floatTensor(name: string, dims: number[], values: Float32Array): OnnxTensor {
  return { name, dims, dataType: TENSOR_FLOAT, floats: values, raw: undefined };
}

export function attribute(node: OnnxNode, name: string): OnnxAttribute | undefined {
  return node.attributes.find((a) => a.name === name);
}
