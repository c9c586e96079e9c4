import { availableParallelism } from 'node:os';
import {
  defineOptions,
  field,
  type OptionsOutput,
  parseOptionStrings,
  type RawValue,
} from '@docsvc/partition';

/**
 * Server configuration: one declaration gives the `service-server` flags (--kebab-case), the environment
 * variables (flag > env > default) and validation.
 */
export const serverOptions = defineOptions({
  host: field.string({ default: '127.0.0.1', env: 'HOST', description: 'Address to listen on.' }),
  port: field.integer({
    default: 8000,
    min: 0,
    max: 65535,
    env: 'PORT',
    description: 'Port to listen on (0 = any free port).',
  }),
  data_dir: field.string({
    default: './.data',
    env: 'SERVICE_DATA_DIR',
    description: 'Folder of the embedded database and the generated master key.',
    placeholder: '<dir>',
  }),
  database_url: field.string({
    env: 'DATABASE_URL',
    secret: true,
    description: 'PostgreSQL connection string; when absent the embedded database in data_dir is used.',
    placeholder: '<url>',
  }),
  secret_key: field.string({
    env: 'SERVICE_SECRET_KEY',
    secret: true,
    description:
      'Master key that encrypts API keys and secrets at rest; generated into data_dir when absent.',
    placeholder: '<key>',
  }),
  api_key: field.string({
    env: 'SERVICE_API_KEY',
    secret: true,
    description:
      'When set, this exact key is accepted for the default workspace (scripts, tests, quick start).',
    placeholder: '<key>',
  }),
  max_upload_mb: field.number({
    default: 256,
    min: 0.001,
    env: 'SERVICE_MAX_UPLOAD_MB',
    description: 'Largest request body, in MiB (413 above it).',
  }),
  max_concurrent_requests: field.integer({
    default: Math.max(2, availableParallelism()),
    min: 1,
    env: 'SERVICE_MAX_CONCURRENT_REQUESTS',
    description: 'Partition requests processed at the same time.',
  }),
  max_queued_requests: field.integer({
    default: 64,
    min: 0,
    env: 'SERVICE_MAX_QUEUED_REQUESTS',
    description:
      'Partition requests that may wait for a slot; beyond that the server answers 503 with Retry-After.',
  }),
  memory_free_minimum_mb: field.integer({
    default: 256,
    min: 0,
    env: 'SERVICE_MEMORY_FREE_MINIMUM_MB',
    description:
      'Refuse new partition requests (503) while the machine has less free memory than this (0 = off).',
  }),
  rate_limit_per_minute: field.integer({
    default: 600,
    min: 0,
    env: 'SERVICE_RATE_LIMIT_PER_MINUTE',
    description: 'Requests per minute allowed per API key (429 above it; 0 = no limit).',
  }),
  cors_origins: field.stringList({
    default: [],
    env: 'SERVICE_CORS_ORIGINS',
    description: 'Origins allowed to call the API from a browser (comma-separated; * for any).',
    placeholder: '<origins>',
  }),
  models_dir: field.string({
    env: 'SERVICE_MODELS_DIR',
    description:
      'Folder of ONNX layout models that requests may name in hi_res_model_name (by file name). Paths in requests are refused, so callers cannot probe the server file system.',
    placeholder: '<dir>',
  }),
  log_level: field.enum(['fatal', 'error', 'warn', 'info', 'debug', 'silent'], {
    default: 'info',
    env: 'SERVICE_LOG_LEVEL',
    description: 'Log level of the JSON logs written to standard output.',
  }),
});

export type ServerConfig = OptionsOutput<typeof serverOptions.shape>;

/** Configuration from environment variables plus explicit overrides (overrides win). */
export function resolveServerConfig(
  overrides: Partial<Record<keyof ServerConfig, unknown>> = {},
  env: NodeJS.ProcessEnv = process.env,
): ServerConfig {
  const raw: Record<string, RawValue> = {};
  for (const { name, spec } of serverOptions.fields) {
    const value = spec.env ? env[spec.env] : undefined;
    if (value !== undefined && value !== '') raw[name] = value;
  }
  const fromEnv = parseOptionStrings(serverOptions, raw, { ignoreUnknown: false });
  const defined = Object.fromEntries(Object.entries(overrides).filter(([, value]) => value !== undefined));
  return serverOptions.parse({ ...fromEnv, ...defined });
}
