import { DataType, type FieldType, type MilvusClient } from '@zilliz/milvus2-sdk-node';
import { ConnectorError } from '../errors.js';
import { CONNECTOR, ensureSuccess, toConnectorError } from './client.js';
import { type CollectionLayout, ensureLoaded, readLayout, reviewLayout, VECTOR_FIELD } from './layout.js';

/**
 * The SPEC 2.7 collection: the minimal schema (element_id, embeddings, record_id, text, type), optionally
 * extended with every optional metadata field of SPEC 2.7 (all nullable), an IVF_FLAT/COSINE index with
 * nlist 1024 on the vector field, loaded.
 */

export const SPEC_INDEX = { index_type: 'IVF_FLAT', metric_type: 'COSINE', params: { nlist: 1024 } } as const;

/** Milvus's largest VARCHAR (SPEC 8). */
export const MAX_VARCHAR_LENGTH = 65_535;

const nullable = { nullable: true } as const;

function varchar(name: string, maxLength: number, extra: Partial<FieldType> = {}): FieldType {
  return { name, data_type: DataType.VarChar, max_length: maxLength, ...extra };
}

export function minimalFields(dimension: number): FieldType[] {
  return [
    varchar('element_id', 200, { is_primary_key: true, autoID: false }),
    { name: VECTOR_FIELD, data_type: DataType.FloatVector, dim: dimension },
    varchar('record_id', 200),
    varchar('text', MAX_VARCHAR_LENGTH),
    varchar('type', 200, nullable),
  ];
}

/** The optional metadata fields of SPEC 2.7, flattened with "_". */
export function metadataFields(): FieldType[] {
  const int32 = (name: string): FieldType => ({ name, data_type: DataType.Int32, ...nullable });
  const json = (name: string): FieldType => ({ name, data_type: DataType.JSON, ...nullable });
  return [
    varchar('is_extracted', 5, nullable),
    json('coordinates_points'),
    varchar('coordinates_system', 64, nullable),
    int32('coordinates_layout_width'),
    int32('coordinates_layout_height'),
    varchar('filetype', 64, nullable),
    {
      name: 'languages',
      data_type: DataType.Array,
      element_type: DataType.VarChar,
      max_capacity: 10,
      max_length: 64,
      ...nullable,
    },
    int32('page_number'),
    varchar('image_mime_type', 64, nullable),
    varchar('filename', 256, nullable),
    varchar('data_source_url', 1024, nullable),
    varchar('data_source_record_locator_protocol', 64, nullable),
    varchar('data_source_record_locator_remote_file_path', 1024, nullable),
    json('entities_items'),
    json('entities_relationships'),
  ];
}

export interface CreateCollectionOptions {
  collection_name: string;
  /** Vector length: the embedding model's dimension (SPEC 8; 384 in the minimal sample). */
  dimension: number;
  /** Add every optional metadata field of SPEC 2.7. */
  extended?: boolean;
  /** enable_dynamic_field: metadata without a field of its own goes into the $meta JSON field. */
  dynamic_fields?: boolean;
}

export function specFields(options: Pick<CreateCollectionOptions, 'dimension' | 'extended'>): FieldType[] {
  return options.extended
    ? [...minimalFields(options.dimension), ...metadataFields()]
    : minimalFields(options.dimension);
}

export interface CreateCollectionResult {
  /** false when the collection already existed (it was checked, not changed). */
  created: boolean;
  layout: CollectionLayout;
}

/**
 * Create the SPEC 2.7 collection with its index and load it. An existing collection is left as it is when
 * it suits the destination (right dimension, required fields) and loaded if needed; otherwise this fails
 * without touching it.
 */
export async function createSpecCollection(
  client: MilvusClient,
  database: string,
  options: CreateCollectionOptions,
): Promise<CreateCollectionResult> {
  const { collection_name: collection, dimension } = options;
  if (!Number.isInteger(dimension) || dimension < 1 || dimension > 32_768) {
    throw new ConnectorError(
      CONNECTOR,
      'config',
      `dimension must be an integer from 1 to 32768, got ${dimension}`,
    );
  }
  const call = async <T>(what: string, run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      throw toConnectorError(error, what);
    }
  };
  const exists = await call(`cannot reach collection "${collection}"`, () =>
    client.hasCollection({ collection_name: collection }),
  );
  ensureSuccess(exists.status, `cannot check whether "${collection}" exists`, 'unknown');
  if (exists.value) {
    const layout = await readLayout(client, collection, database);
    const { problems } = reviewLayout(layout, dimension);
    if (problems.length > 0) {
      throw new ConnectorError(
        CONNECTOR,
        'schema',
        `collection "${collection}" already exists and does not fit: ${problems.join('; ')}`,
      );
    }
    await loadAndWait(client, collection);
    return { created: false, layout };
  }
  const created = await call(`cannot create collection "${collection}"`, () =>
    client.createCollection({
      collection_name: collection,
      fields: specFields(options),
      enable_dynamic_field: options.dynamic_fields === true,
    }),
  );
  ensureSuccess(created, `cannot create collection "${collection}"`, 'unknown');
  const indexed = await call(`cannot index "${collection}"`, () =>
    client.createIndex({ collection_name: collection, field_name: VECTOR_FIELD, ...SPEC_INDEX }),
  );
  ensureSuccess(indexed, `cannot create the ${SPEC_INDEX.index_type} index of "${collection}"`, 'unknown');
  await loadAndWait(client, collection);
  return { created: true, layout: await readLayout(client, collection, database) };
}

async function loadAndWait(client: MilvusClient, collection: string): Promise<void> {
  let status: Awaited<ReturnType<MilvusClient['loadCollection']>>;
  try {
    // The SDK's loadCollection waits until loading has finished.
    status = await client.loadCollection({ collection_name: collection });
  } catch (error) {
    throw toConnectorError(error, `cannot load "${collection}"`);
  }
  ensureSuccess(status, `cannot load "${collection}"`, 'unknown');
  await ensureLoaded(client, collection);
}
