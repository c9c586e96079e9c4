export { CHAT_PROVIDERS, type ChatProvider } from './chat/types.js';
export type { ProviderEnv } from './credentials.js';
export { ProviderError } from './errors.js';
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry.js';
