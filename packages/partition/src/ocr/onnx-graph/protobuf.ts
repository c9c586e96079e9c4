/**
 * The protobuf wire format, as far as ONNX files need it: read a message into its fields (payloads are
 * views into the input, so a 10 MB model is not copied), and write fields back. Fields a caller does
 * not understand are kept as raw bytes and written back unchanged.
 */

export enum WireType {
  Varint = 0,
  Fixed64 = 1,
  Bytes = 2,
  Fixed32 = 5,
}

export interface WireField {
  number: number;
  wireType: WireType;
  /** Varint fields: the value (unsigned 64-bit; see `asInt64`). */
  varint: bigint;
  /** Bytes fields: the payload; fixed fields: their 4 or 8 bytes. */
  bytes: Uint8Array;
  /** The whole field as it was encoded (key and payload), for writing it back untouched. */
  raw: Uint8Array;
}

export class ProtobufError extends Error {
  override readonly name = 'ProtobufError';
}

function readVarint(data: Uint8Array, start: number): [value: bigint, next: number] {
  let value = 0n;
  let shift = 0n;
  let at = start;
  for (;;) {
    if (at >= data.length) throw new ProtobufError('truncated varint');
    const byte = data[at++]!;
    value |= BigInt(byte & 0x7f) << shift;
    if (byte < 0x80) return [value, at];
    shift += 7n;
    if (shift > 63n) throw new ProtobufError('varint longer than 10 bytes');
  }
}

/** The fields of one message, in file order. */
export function readFields(data: Uint8Array): WireField[] {
  const fields: WireField[] = [];
  let at = 0;
  while (at < data.length) {
    const start = at;
    const [key, afterKey] = readVarint(data, at);
    const number = Number(key >> 3n);
    const wireType = Number(key & 7n) as WireType;
    let varint = 0n;
    let bytes = data.subarray(0, 0);
    at = afterKey;
    switch (wireType) {
      case WireType.Varint:
        [varint, at] = readVarint(data, at);
        break;
      case WireType.Fixed64:
      case WireType.Fixed32: {
        const size = wireType === WireType.Fixed64 ? 8 : 4;
        bytes = data.subarray(at, at + size);
        at += size;
        break;
      }
      case WireType.Bytes: {
        const [length, payloadStart] = readVarint(data, at);
        bytes = data.subarray(payloadStart, payloadStart + Number(length));
        at = payloadStart + Number(length);
        break;
      }
      default:
        throw new ProtobufError(`unsupported wire type ${wireType}`);
    }
    if (at > data.length) throw new ProtobufError('field runs past the end of its message');
    fields.push({ number, wireType, varint, bytes, raw: data.subarray(start, at) });
  }
  return fields;
}

/** A varint read as a signed 64-bit integer (protobuf int64: negative numbers are two's complement). */
export function asInt64(value: bigint): number {
  return Number(BigInt.asIntN(64, value));
}

const textDecoder = new TextDecoder();
export const decodeString = (bytes: Uint8Array): string => textDecoder.decode(bytes);

/** Packed repeated varints (or one unpacked element, when `field.wireType` is Varint). */
export function readPackedInt64(field: WireField): number[] {
  if (field.wireType === WireType.Varint) return [asInt64(field.varint)];
  const values: number[] = [];
  let at = 0;
  while (at < field.bytes.length) {
    const [value, next] = readVarint(field.bytes, at);
    values.push(asInt64(value));
    at = next;
  }
  return values;
}

/** Packed repeated float32 (or one unpacked element, when `field.wireType` is Fixed32). */
export function readPackedFloats(field: WireField): number[] {
  const view = new DataView(field.bytes.buffer, field.bytes.byteOffset, field.bytes.byteLength);
  const values: number[] = [];
  for (let at = 0; at + 4 <= field.bytes.length; at += 4) values.push(view.getFloat32(at, true));
  return values;
}

/** Builds one message. Parts are collected and joined once, so large payloads are copied once. */
export class MessageWriter {
  private readonly parts: Uint8Array[] = [];
  private size = 0;

  private push(part: Uint8Array): this {
    this.parts.push(part);
    this.size += part.length;
    return this;
  }

  private varintBytes(value: bigint): Uint8Array {
    let v = BigInt.asUintN(64, value);
    const out: number[] = [];
    do {
      let byte = Number(v & 0x7fn);
      v >>= 7n;
      if (v > 0n) byte |= 0x80;
      out.push(byte);
    } while (v > 0n);
    return Uint8Array.from(out);
  }

  private key(number: number, wireType: WireType): this {
    return this.push(this.varintBytes(BigInt((number << 3) | wireType)));
  }

  /** A field exactly as it was read. */
  raw(field: WireField): this {
    return this.push(field.raw);
  }

  int64(number: number, value: number): this {
    return this.key(number, WireType.Varint).push(this.varintBytes(BigInt(value)));
  }

  float(number: number, value: number): this {
    const bytes = new Uint8Array(4);
    new DataView(bytes.buffer).setFloat32(0, value, true);
    return this.key(number, WireType.Fixed32).push(bytes);
  }

  bytes(number: number, payload: Uint8Array): this {
    return this.key(number, WireType.Bytes)
      .push(this.varintBytes(BigInt(payload.length)))
      .push(payload);
  }

  string(number: number, text: string): this {
    return this.bytes(number, new TextEncoder().encode(text));
  }

  packedInt64(number: number, values: readonly number[]): this {
    const inner = new MessageWriter();
    for (const value of values) inner.push(this.varintBytes(BigInt(value)));
    return this.bytes(number, inner.finish());
  }

  packedFloats(number: number, values: readonly number[]): this {
    const bytes = new Uint8Array(values.length * 4);
    const view = new DataView(bytes.buffer);
    for (const [index, value] of values.entries()) view.setFloat32(index * 4, value, true);
    return this.bytes(number, bytes);
  }

  finish(): Uint8Array {
    const out = new Uint8Array(this.size);
    let at = 0;
    for (const part of this.parts) {
      out.set(part, at);
      at += part.length;
    }
    return out;
  }
}
