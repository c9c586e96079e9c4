/**
 * Shared pieces of the smoke suites: the SPEC 2.7 index layout for engine_a/engine_b and small
 * deterministic vectors. The connectors build their own mappings (search-engine/mapping.ts); this one is
 * written out from SPEC independently, to prove the servers accept SPEC's layout and, in the connector
 * tests, that the connectors' auto-created indices equal it.
 */

const textWithKeyword = {
  type: 'text',
  fields: { keyword: { type: 'keyword', ignore_above: 256 } },
} as const;

/** `mappings.properties` of SPEC 2.7 for engine_a and engine_b, minus the vector field. */
export function specProperties(): Record<string, unknown> {
  return {
    element_id: { type: 'keyword' },
    record_id: { type: 'text' },
    text: { type: 'text' },
    type: textWithKeyword,
    metadata: {
      properties: {
        is_extracted: { type: 'boolean' },
        'coordinates-points': { type: 'float' },
        'coordinates-system': textWithKeyword,
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
        'entities-items': { properties: { entity: textWithKeyword, type: textWithKeyword } },
        'entities-relationships': {
          properties: { from: textWithKeyword, relationship: textWithKeyword, to: textWithKeyword },
        },
      },
    },
  };
}

/** A unit-ish vector pointing mostly along axis `axis`, so nearest neighbours are known in advance. */
export function axisVector(dimension: number, axis: number): number[] {
  return Array.from({ length: dimension }, (_, i) => (i === axis ? 1 : 0.01));
}

/** A name unique to this test process, for indexes and collections (test files run in parallel). */
export function uniqueName(prefix: string): string {
  return `${prefix}_${process.pid}_${Date.now().toString(36)}`;
}

/** One SPEC-shaped record (the staged form with flattened metadata keys). */
export function specRecord(elementId: string, text: string, embeddings: number[], page: number) {
  return {
    element_id: elementId,
    record_id: 'record-1',
    text,
    type: 'NarrativeText',
    embeddings,
    metadata: {
      filetype: 'text/plain',
      languages: ['eng'],
      filename: 'smoke.txt',
      page_number: page,
      'coordinates-points': [1.5, 2.5],
      'data_source-url': 'file:///smoke.txt',
      'entities-items': [{ entity: 'Smoke', type: 'THING' }],
    },
  };
}
