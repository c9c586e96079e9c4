/**
 * A tiny ONNX model written byte by byte (ONNX files are protobuf), so tests can prove the YOLOX
 * pre-processing and decoding without downloading a real layout model. The graph outputs a constant
 * raw YOLOX head (plus 0 × max(input), so the input is really consumed):
 *   images [1, 3, H, W] → output [1, N, 16] = head + 0 · ReduceMax(images)
 */

class Writer {
  private readonly bytes: number[] = [];

  varint(value: number): this {
    let v = BigInt(value);
    if (v < 0n) v += 1n << 64n;
    do {
      let byte = Number(v & 0x7fn);
      v >>= 7n;
      if (v > 0n) byte |= 0x80;
      this.bytes.push(byte);
    } while (v > 0n);
    return this;
  }

  key(field: number, wireType: 0 | 2): this {
    return this.varint((field << 3) | wireType);
  }

  int(field: number, value: number): this {
    return this.key(field, 0).varint(value);
  }

  bytesField(field: number, data: Uint8Array): this {
    this.key(field, 2).varint(data.length);
    for (const byte of data) this.bytes.push(byte);
    return this;
  }

  string(field: number, text: string): this {
    return this.bytesField(field, new TextEncoder().encode(text));
  }

  message(field: number, build: (w: Writer) => void): this {
    const inner = new Writer();
    build(inner);
    return this.bytesField(field, inner.finish());
  }

  finish(): Uint8Array {
    return Uint8Array.from(this.bytes);
  }
}

const FLOAT = 1;

function tensorType(w: Writer, dims: readonly number[]): void {
  w.message(1, (tensor) => {
    tensor.int(1, FLOAT);
    tensor.message(2, (shape) => {
      for (const dim of dims) shape.message(1, (d) => d.int(1, dim));
    });
  });
}

function floatTensor(w: Writer, name: string, dims: readonly number[], values: Float32Array): void {
  for (const dim of dims) w.int(1, dim);
  w.int(2, FLOAT);
  w.string(8, name);
  w.bytesField(9, new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
}

/** An ONNX model of opset 13 whose output is `head` ([1, N, 16]) for any image of [1, 3, height, width]. */
export function constantYoloxModel(
  height: number,
  width: number,
  head: Float32Array,
  anchors: number,
): Uint8Array {
  const model = new Writer();
  model.int(1, 8); // ir_version
  model.string(2, 'docsvc-test');
  model.message(7, (graph) => {
    graph.message(1, (node) => {
      node.string(1, 'images').string(2, 'max').string(3, 'reduce').string(4, 'ReduceMax');
      node.message(5, (attribute) => attribute.string(1, 'keepdims').int(3, 0).int(20, 2));
    });
    graph.message(1, (node) =>
      node.string(1, 'max').string(1, 'zero').string(2, 'nothing').string(3, 'mul').string(4, 'Mul'),
    );
    graph.message(1, (node) =>
      node.string(1, 'head').string(1, 'nothing').string(2, 'output').string(3, 'add').string(4, 'Add'),
    );
    graph.string(2, 'tiny-yolox');
    graph.message(5, (t) => floatTensor(t, 'head', [1, anchors, 16], head));
    graph.message(5, (t) => floatTensor(t, 'zero', [], new Float32Array([0])));
    graph.message(11, (input) =>
      input.string(1, 'images').message(2, (type) => tensorType(type, [1, 3, height, width])),
    );
    graph.message(12, (output) =>
      output.string(1, 'output').message(2, (type) => tensorType(type, [1, anchors, 16])),
    );
  });
  model.message(8, (opset) => opset.string(1, '').int(2, 13));
  return model.finish();
}

export interface HeadEntry {
  stride: 8 | 16 | 32;
  gx: number;
  gy: number;
  /** Box in model-input pixels. */
  box: { x0: number; y0: number; x1: number; y1: number };
  objectness: number;
  classIndex: number;
  classScore: number;
}

/** A raw YOLOX head for an input of height × width holding exactly the given detections. */
export function yoloxHead(
  height: number,
  width: number,
  entries: readonly HeadEntry[],
): { head: Float32Array; anchors: number } {
  const offsets = new Map<number, number>();
  let anchors = 0;
  for (const stride of [8, 16, 32]) {
    offsets.set(stride, anchors);
    anchors += Math.floor(height / stride) * Math.floor(width / stride);
  }
  const head = new Float32Array(anchors * 16);
  for (const entry of entries) {
    const anchor = offsets.get(entry.stride)! + entry.gy * Math.floor(width / entry.stride) + entry.gx;
    const base = anchor * 16;
    const cx = (entry.box.x0 + entry.box.x1) / 2;
    const cy = (entry.box.y0 + entry.box.y1) / 2;
    head[base] = cx / entry.stride - entry.gx;
    head[base + 1] = cy / entry.stride - entry.gy;
    head[base + 2] = Math.log((entry.box.x1 - entry.box.x0) / entry.stride);
    head[base + 3] = Math.log((entry.box.y1 - entry.box.y0) / entry.stride);
    head[base + 4] = entry.objectness;
    head[base + 5 + entry.classIndex] = entry.classScore;
  }
  return { head, anchors };
}
