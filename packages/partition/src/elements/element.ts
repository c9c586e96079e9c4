import { z } from 'zod';
import { ELEMENT_TYPES, type ElementType } from './element-types.js';
import { type ElementMetadata, elementMetadataSchema } from './metadata.js';

/** One element of a partitioned document (SPEC 2.5). Wire names are exactly these. */
export interface Element {
  type: ElementType;
  element_id: string;
  text: string;
  metadata: ElementMetadata;
  /** Present when embeddings were generated. */
  embeddings?: number[];
  /** Set by destinations' staging: the source record this element belongs to. */
  record_id?: string;
}

/** An element as a partitioner produces it, before ids and document-wide metadata are assigned. */
export interface ElementDraft {
  type: ElementType;
  text: string;
  metadata?: ElementMetadata;
}

export const elementSchema = z.object({
  type: z.enum(ELEMENT_TYPES),
  element_id: z.string(),
  text: z.string(),
  metadata: elementMetadataSchema.default({}),
  embeddings: z.array(z.number()).optional(),
  record_id: z.string().optional(),
});

export const elementListSchema = z.array(elementSchema);

/** Build a draft; metadata keys whose value is undefined are left out. */
export function draft(type: ElementType, text: string, metadata: ElementMetadata = {}): ElementDraft {
  return { type, text, metadata: compactMetadata(metadata) };
}

/** Remove keys whose value is undefined, so JSON output and deep equality agree. */
export function compactMetadata<T extends Record<string, unknown>>(metadata: T): T {
  for (const key of Object.keys(metadata)) {
    if (metadata[key] === undefined) delete metadata[key];
  }
  return metadata;
}
