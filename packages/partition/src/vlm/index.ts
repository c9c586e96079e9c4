export { pickVlmOptions, type VlmConnectionOptions, type VlmOptionsInput, vlmOptionSet } from './options.js';
export { MAX_SIDE as VLM_MAX_IMAGE_SIDE, type PageImage } from './page-image.js';
export { VLM_SYSTEM_PROMPT } from './prompt.js';
export {
  createVlmClient,
  type VlmClient,
  type VlmOptions,
  type VlmRuntime,
  vlmPageToDrafts,
} from './vlm-client.js';
