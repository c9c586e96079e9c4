/**
 * Staging shared by every destination: metadata flattening with the target's joiner and deterministic
 * record keys from (record_id, element_id). engine_a/engine_b use "-", vector_db "_" (SPEC 2.7).
 */
export { type FlatRecord, flattenObject } from './flatten.js';
export { recordKey, recordKeys } from './record-keys.js';
export {
  type ElementRow,
  embeddingDimension,
  type KeyedRow,
  type StageOptions,
  stageElementRows,
} from './stage.js';
