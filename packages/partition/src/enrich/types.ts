import type { Element } from '../elements/element.js';
import type { Entities } from '../elements/metadata.js';

export type { Entities };
export type EntityItem = Entities['items'][number];
export type Relationship = Entities['relationships'][number];

/** One extraction engine: the text of one element in, its entities and relationships out. */
export interface EntityExtractor {
  readonly name: string;
  extract(text: string, element: Element): Promise<Entities>;
}

/**
 * Entity types the local engine produces, and the list the LLM prompt asks for. Names are spelled out
 * (ORGANIZATION, not ORG) so that they read the same in every destination.
 */
export const ENTITY_TYPES = [
  'PERSON',
  'ORGANIZATION',
  'LOCATION',
  'DATE',
  'TIME',
  'DURATION',
  'MONEY',
  'PERCENT',
  'EMAIL',
  'URL',
  'HASHTAG',
  'MENTION',
] as const;
