import { DataType } from '@zilliz/milvus2-sdk-node';
import { describe, expect, it } from 'vitest';
import { reviewLayout } from './layout.js';
import { minimalFields } from './schema.js';
import { layoutOf, specLayout } from './test-support/layout.js';

describe('reviewLayout', () => {
  it('accepts the SPEC 2.7 schemas', () => {
    expect(reviewLayout(specLayout({ extended: false }), 4)).toEqual({ problems: [], requiredOptional: [] });
    expect(reviewLayout(specLayout({ extended: true }), 4).problems).toEqual([]);
  });

  it('names a dimension other than the data’s', () => {
    expect(reviewLayout(specLayout({ dimension: 384 }), 512).problems).toEqual([
      expect.stringMatching(/"embeddings" has dimension 384 but the embeddings have 512/),
    ]);
  });

  it('names missing and mistyped required fields', () => {
    const layout = layoutOf('bad', [
      { name: 'id', data_type: DataType.Int64, is_primary_key: true, autoID: true },
      { name: 'embeddings', data_type: DataType.BinaryVector, dim: 16 },
      { name: 'text', data_type: DataType.JSON },
      { name: 'sparse', data_type: DataType.SparseFloatVector },
      { name: 'page_number', data_type: DataType.Int32 },
    ]);
    const { problems, requiredOptional } = reviewLayout(layout);
    expect(problems).toEqual([
      'the primary key must be the VARCHAR field "element_id" (it is "id")',
      '"embeddings" must be FLOAT_VECTOR (it is BinaryVector)',
      'the VARCHAR field "record_id" is missing',
      '"text" must be VARCHAR (it is JSON)',
      'field "sparse" (SparseFloatVector) is required but the service never writes that type',
    ]);
    expect(requiredOptional).toEqual(['page_number']);
  });

  it('wants a primary key long enough for derived keys and not auto_id', () => {
    const layout = layoutOf('short', [
      { name: 'element_id', data_type: DataType.VarChar, is_primary_key: true, autoID: true, max_length: 16 },
      ...minimalFields(4).slice(1),
    ]);
    expect(reviewLayout(layout).problems).toEqual([
      '"element_id" must not be auto_id: the destination sets its keys',
      '"element_id" needs max_length ≥ 32 (SPEC 2.7: 200)',
    ]);
  });
});
