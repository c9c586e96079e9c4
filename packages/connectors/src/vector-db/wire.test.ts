import { getGRPCService, LOADER_OPTIONS } from '@zilliz/milvus2-sdk-node';
import { describe, expect, it } from 'vitest';
import { specLayout } from './test-support/layout.js';
import { buildFieldsData, encodeFloatVectorEntry } from './wire.js';

/** The SDK's own (protobuf.js) codec of the Upsert request. */
const upsert = (
  getGRPCService({ serviceName: 'milvus.proto.milvus.MilvusService' }, LOADER_OPTIONS) as unknown as {
    service: Record<
      string,
      { requestSerialize(m: unknown): Buffer; requestDeserialize(b: Buffer): { fields_data: unknown[] } }
    >;
  }
).service.Upsert!;

describe('hand-encoded vector column', () => {
  it('decodes to the same FieldData as protobuf.js writes', () => {
    const layout = specLayout({ dimension: 3, extended: false });
    const rows = [
      { element_id: 'a', embeddings: [0.5, -1.25, 3] },
      { element_id: 'b', embeddings: [1e-7, 2 ** 20, -0] },
    ];
    const generic = upsert.requestDeserialize(
      upsert.requestSerialize({
        collection_name: 'c',
        fields_data: buildFieldsData(layout, rows).filter((f) => f.field_name === 'embeddings'),
      }),
    );
    const hand = upsert.requestDeserialize(
      Buffer.concat([
        upsert.requestSerialize({ collection_name: 'c', fields_data: [] }),
        encodeFloatVectorEntry(
          'embeddings',
          3,
          rows.map((row) => row.embeddings),
        ),
      ]),
    );
    expect(hand).toEqual(generic);
    expect(hand.fields_data[0]).toMatchObject({
      type: 'FloatVector',
      field_name: 'embeddings',
      vectors: { dim: '3', float_vector: { data: [0.5, -1.25, 3, Math.fround(1e-7), 2 ** 20, -0] } },
    });
  });

  it('keeps every other column with protobuf.js, the vector column left out when asked', () => {
    const layout = specLayout({ dimension: 3, extended: true });
    const row = {
      element_id: 'a',
      embeddings: [1, 2, 3],
      record_id: 'r',
      text: 't',
      type: null,
      languages: ['eng'],
    };
    const names = buildFieldsData(layout, [row], new Set(['embeddings'])).map((f) => f.field_name);
    expect(names).not.toContain('embeddings');
    expect(names).toContain('languages');
    expect(names).toHaveLength(layout.fields.length - 1);
  });
});
