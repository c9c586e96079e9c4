/**
 * @docsvc/server: the HTTP API (partition endpoint, API keys and workspaces).
 */
export { type AppDeps, buildApp } from './app.js';
export { resolveServerConfig, type ServerConfig, serverOptions } from './config.js';
export { API_KEY_HEADER } from './http/auth.js';
export { type ApiKeyInfo, KeyStore } from './keys/store.js';
export { buildOpenApiDocument } from './openapi.js';
export { partitionFormOptions } from './partition-form.js';
export { createService, type Service, VERSION } from './service.js';
