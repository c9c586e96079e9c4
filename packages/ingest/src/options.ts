import { homedir } from 'node:os';
import { join } from 'node:path';
import { defineOptions, field, type OptionsInput, type OptionsOutput } from '@docsvc/partition';

/** Default work dir: under the user's cache folder (XDG_CACHE_HOME when set). */
export function defaultWorkDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'docsvc', 'ingest');
}

/**
 * How a run works (not what it produces). Same names in `ingest({...})` (snake_case) and on the CLI
 * (kebab-case), with SPEC 4.6 environment variables as defaults.
 */
export const processorOptions = defineOptions({
  num_processes: field.integer({
    default: 2,
    min: 1,
    max: 64,
    description:
      'Worker threads for partitioning, the CPU-bound step (chunking, embedding and uploads run on the main thread); 1 partitions in the main thread.',
  }),
  max_connections: field.integer({
    default: 8,
    min: 1,
    max: 256,
    description: 'Records in flight at once (bounded I/O concurrency for downloads, API calls and uploads).',
  }),
  work_dir: field.string({
    description: `Where step outputs are cached so an interrupted or repeated run resumes (default: ${defaultWorkDir()}).`,
    placeholder: '<dir>',
  }),
  reprocess: field.boolean({
    default: false,
    description: 'Ignore cached step outputs and previous uploads: process and upload every record again.',
  }),
  re_download: field.boolean({
    default: false,
    description:
      'Fetch every record from the source again even when a cached copy of the same version exists.',
  }),
  dry_run: field.boolean({
    default: false,
    description: 'List what would be processed and why (new, changed, unchanged) without doing it.',
  }),
  raise_on_error: field.boolean({
    default: false,
    description: 'Stop at the first failing record instead of reporting it and going on.',
  }),
  metadata_exclude: field.stringList({
    description:
      'Metadata fields to leave out of the output and of what destinations receive (e.g. image_base64,orig_elements; dotted paths like data_source.date_processed).',
    placeholder: '<fields>',
  }),
  metadata_include: field.stringList({
    description: 'Keep only these metadata fields (mutually exclusive with metadata_exclude).',
    placeholder: '<fields>',
  }),
  partition_by_api: field.boolean({
    default: false,
    description:
      'Send files to the partition endpoint instead of partitioning locally (no key or address is used otherwise).',
  }),
  partition_endpoint: field.string({
    default: 'http://127.0.0.1:8000/general/v0/general',
    env: 'SERVICE_API_URL',
    description: 'Address of the partition endpoint, with partition_by_api.',
    placeholder: '<url>',
  }),
  api_key: field.string({
    env: 'SERVICE_API_KEY',
    secret: true,
    aliases: ['partition_api_key'],
    description:
      'Service API key for partition_by_api (sent as service-api-key). When the source itself has an --api-key (engine_a), use --partition-api-key.',
    placeholder: '<key>',
  }),
  additional_partition_args: field.json({
    description:
      'JSON object of extra partition parameters (e.g. {"split_pdf_page": true}): sent to the endpoint as given with partition_by_api, applied on top of the partition options (and checked like them) otherwise.',
    placeholder: '<json>',
  }),
  api_timeout_ms: field.integer({
    default: 600_000,
    min: 1_000,
    description: 'Time limit of one partition request with partition_by_api.',
  }),
  api_max_retries: field.integer({
    default: 5,
    min: 0,
    max: 20,
    description:
      'Retries (with exponential backoff, honouring Retry-After) on 429, 5xx and connection errors.',
  }),
  verbose: field.boolean({ default: false, description: 'Log every record and step.' }),
  quiet: field.boolean({ default: false, description: 'Print only failures and the final summary.' }),
  log_format: field.enum(['text', 'json'], {
    default: 'text',
    description:
      'Progress output: text (progress bars on a terminal, plain lines otherwise) or json (one event per line).',
  }),
});

export type ProcessorOptionsInput = OptionsInput<typeof processorOptions.shape>;
export type ProcessorOptions = OptionsOutput<typeof processorOptions.shape>;
