import { DataType, type FieldSchema, type FieldType } from '@zilliz/milvus2-sdk-node';
import { type CollectionLayout, layoutFromFields } from '../layout.js';
import { specFields } from '../schema.js';

/**
 * A layout as describeCollection would report it for these creation-time field definitions, so unit tests
 * exercise the same reading code as a real server's answer.
 */
export function layoutOf(collection: string, fields: FieldType[], dynamic = false): CollectionLayout {
  const described = fields.map((field) => {
    const name = (type: FieldType['data_type'] | undefined) =>
      typeof type === 'number' ? DataType[type] : String(type ?? 'None');
    const schema: Record<string, unknown> = {
      name: field.name,
      data_type: name(field.data_type),
      element_type: name(field.element_type),
      is_primary_key: field.is_primary_key === true,
      autoID: field.autoID === true,
      nullable: field.nullable === true,
      is_function_output: false,
      default_value: field.default_value ?? null,
    };
    for (const key of ['max_length', 'max_capacity', 'dim'] as const)
      if (field[key] !== undefined) schema[key] = String(field[key]);
    return schema as unknown as FieldSchema;
  });
  return layoutFromFields(collection, described, dynamic);
}

export function specLayout(options: { dimension?: number; extended?: boolean; dynamic?: boolean } = {}) {
  return layoutOf(
    'spec',
    specFields({ dimension: options.dimension ?? 4, extended: options.extended ?? true }),
    options.dynamic ?? false,
  );
}
