export { createEntityExtractor, type EnrichmentRuntime, enrichElements } from './enrich-elements.js';
export { LLM_ENTITY_TYPES, SYSTEM_PROMPT as ENTITY_EXTRACTION_PROMPT } from './llm/prompt.js';
export {
  ENTITY_EXTRACTION_ENGINES,
  type EntityExtractionOptions,
  type EntityExtractionOptionsInput,
  entityExtractionOptionSet,
  pickEntityExtractionOptions,
} from './options.js';
export { ENTITY_TYPES, type EntityExtractor, type EntityItem, type Relationship } from './types.js';
