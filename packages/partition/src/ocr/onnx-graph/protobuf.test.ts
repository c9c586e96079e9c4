import { describe, expect, it } from 'vitest';
import {
  asInt64,
  MessageWriter,
  ProtobufError,
  readFields,
  readPackedFloats,
  readPackedInt64,
  WireType,
} from './protobuf.js';

describe('protobuf wire format', () => {
  it('reads back what it writes: varints (negative int64 too), floats, strings, packed values', () => {
    const bytes = new MessageWriter()
      .int64(1, 300)
      .int64(2, -1)
      .float(3, 1.5)
      .string(4, 'Conv')
      .packedInt64(5, [0, 1, -2, 2 ** 40])
      .packedFloats(6, [0.25, -3])
      .finish();
    const fields = readFields(bytes);
    expect(fields.map((f) => [f.number, f.wireType])).toEqual([
      [1, WireType.Varint],
      [2, WireType.Varint],
      [3, WireType.Fixed32],
      [4, WireType.Bytes],
      [5, WireType.Bytes],
      [6, WireType.Bytes],
    ]);
    expect(asInt64(fields[0]!.varint)).toBe(300);
    expect(asInt64(fields[1]!.varint)).toBe(-1);
    expect(readPackedFloats(fields[2]!)).toEqual([1.5]);
    expect(new TextDecoder().decode(fields[3]!.bytes)).toBe('Conv');
    expect(readPackedInt64(fields[4]!)).toEqual([0, 1, -2, 2 ** 40]);
    expect(readPackedFloats(fields[5]!)).toEqual([0.25, -3]);
    // Raw fields are written back unchanged.
    const copy = new MessageWriter();
    for (const field of fields) copy.raw(field);
    expect(copy.finish()).toEqual(bytes);
  });

  it('reads an unpacked repeated int64 element', () => {
    const [field] = readFields(new MessageWriter().int64(8, 7).finish());
    expect(readPackedInt64(field!)).toEqual([7]);
  });

  it('refuses truncated input', () => {
    const bytes = new MessageWriter().string(1, 'hello').finish();
    expect(() => readFields(bytes.subarray(0, bytes.length - 2))).toThrow(ProtobufError);
    expect(() => readFields(Uint8Array.of(0x08, 0x80))).toThrow(ProtobufError);
  });
});
