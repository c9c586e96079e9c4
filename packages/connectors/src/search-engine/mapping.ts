/**
 * The index layout of SPEC 2.7 for engine_a and engine_b: the same field mappings for both, with the
 * vector field and the index settings supplied by each engine's dialect. Only the fields SPEC names are
 * mapped; other metadata keys (parent_id, text_as_html, data_source-record_locator-*...) are mapped
 * dynamically by the engine, as SPEC's sample mapping leaves them.
 */

/** `text` with a `keyword` sub-field, SPEC's shape for type, coordinates-system and entity fields. */
const TEXT_WITH_KEYWORD = {
  type: 'text',
  fields: { keyword: { type: 'keyword', ignore_above: 256 } },
} as const;

/** `mappings.properties` of SPEC 2.7 without the vector field (its type differs per engine). */
export function specProperties(): Record<string, unknown> {
  return {
    element_id: { type: 'keyword' },
    record_id: { type: 'text' },
    text: { type: 'text' },
    type: TEXT_WITH_KEYWORD,
    metadata: {
      properties: {
        is_extracted: { type: 'boolean' },
        'coordinates-points': { type: 'float' },
        'coordinates-system': TEXT_WITH_KEYWORD,
        'coordinates-layout_width': { type: 'long' },
        'coordinates-layout_height': { type: 'long' },
        filetype: { type: 'keyword' },
        languages: { type: 'keyword' },
        image_mime_type: { type: 'keyword' },
        filename: { type: 'keyword' },
        page_number: { type: 'integer' },
        'data_source-url': { type: 'keyword' },
        'data_source-record_locator-protocol': { type: 'keyword' },
        'data_source-record_locator-remote_file_path': { type: 'keyword' },
        'entities-items': {
          properties: { entity: TEXT_WITH_KEYWORD, type: TEXT_WITH_KEYWORD },
        },
        'entities-relationships': {
          properties: { from: TEXT_WITH_KEYWORD, relationship: TEXT_WITH_KEYWORD, to: TEXT_WITH_KEYWORD },
        },
      },
    },
  };
}

/** What the destination needs to know about an existing index's mapping. */
export interface IndexLayout {
  /** Dimension of the `embeddings` vector field, when it is mapped as a vector. */
  dimension: number | undefined;
  /**
   * A field on which a `term` query finds a record's documents exactly: `record_id` when it is a keyword,
   * a keyword sub-field of it otherwise (with its ignore_above). Undefined for SPEC's `text` mapping,
   * where record updates fall back to a phrase query checked against the stored value.
   */
  recordIdTermField: { name: string; ignoreAbove: number } | undefined;
  /** Primary shards, when known (engine_b picks its point-in-time sort from it). */
  shards: number | undefined;
}

interface FieldMapping {
  type?: string;
  dims?: number;
  dimension?: number;
  ignore_above?: number;
  fields?: Record<string, FieldMapping>;
}

/** Reads the layout from a `GET /<index>` answer (`{<concrete index>: {mappings, settings}}`). */
export function readIndexLayout(answer: unknown): IndexLayout {
  const first = Object.values((answer ?? {}) as Record<string, unknown>)[0] as
    | { mappings?: { properties?: Record<string, FieldMapping> }; settings?: unknown }
    | undefined;
  const properties = first?.mappings?.properties ?? {};
  const embeddings = properties.embeddings;
  const dimension = embeddings?.dims ?? embeddings?.dimension;
  const shardsSetting = (first?.settings as { index?: { number_of_shards?: string | number } } | undefined)
    ?.index?.number_of_shards;
  return {
    dimension: typeof dimension === 'number' ? dimension : undefined,
    recordIdTermField: termFieldOf(properties.record_id),
    shards: shardsSetting === undefined ? undefined : Number(shardsSetting),
  };
}

function termFieldOf(mapping: FieldMapping | undefined): IndexLayout['recordIdTermField'] {
  if (!mapping) return undefined;
  if (mapping.type === 'keyword') {
    return { name: 'record_id', ignoreAbove: mapping.ignore_above ?? Number.POSITIVE_INFINITY };
  }
  for (const [name, sub] of Object.entries(mapping.fields ?? {})) {
    if (sub.type === 'keyword') {
      return { name: `record_id.${name}`, ignoreAbove: sub.ignore_above ?? Number.POSITIVE_INFINITY };
    }
  }
  return undefined;
}
