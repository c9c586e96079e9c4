import { performance } from 'node:perf_hooks';
import {
  type Destination,
  getConnector,
  isConnectorError,
  type RecordDescriptor,
  type Source,
} from '@docsvc/connectors';
import {
  chunk,
  chunkingOptionSet,
  createEmbeddingProviderFromOptions,
  type DocumentOptionsInput,
  documentOptionSet,
  type Element,
  type EmbeddingProvider,
  embeddingOptionSet,
  embedElementsWith,
  enrichElements,
  entityExtractionOptionSet,
  isServiceError,
  type PartitionOptionsInput,
  partition,
  partitionOptionSet,
  pickOptions,
} from '@docsvc/partition';
import {
  defaultWorkDir,
  type ProcessorOptions,
  type ProcessorOptionsInput,
  processorOptions,
} from '../options.js';
import { IngestSetupError, RecordFailedError } from './errors.js';
import {
  emptySummary,
  type IngestEvent,
  type IngestSummary,
  type RecordFailure,
  type StepName,
} from './events.js';
import { Limiter } from './limiter.js';
import { applyMetadataFilter, validateMetadataFilter } from './metadata-filter.js';
import { type PartitionApiSettings, partitionViaApi } from './partition-api.js';
import { PartitionPool } from './partition-pool.js';
import {
  type CachedStepOutput,
  dataSourceOf,
  fillDocumentFacts,
  rebaseLastModified,
} from './record-facts.js';
import { classifyRecord, Ledger } from './records.js';
import { contentHash, stableHash, WorkDir, withoutSecrets } from './work-dir.js';

export { IngestSetupError, RecordFailedError } from './errors.js';

export interface ConnectorConfig {
  type: string;
  [option: string]: unknown;
}

/**
 * `ingest()` options: connector configs nested (a source and a destination may both have, say,
 * `index_name`), document and processor options flat, with the same snake_case names as the CLI flags
 * and the API form fields.
 */
export type IngestOptions = DocumentOptionsInput &
  ProcessorOptionsInput & {
    source: ConnectorConfig;
    /** Defaults to the local destination when `output_dir` is given. */
    destination?: ConnectorConfig;
    /** Shorthand for `destination: { type: 'local', output_dir }`. */
    output_dir?: string;
    onEvent?: (event: IngestEvent) => void;
    signal?: AbortSignal;
  };

/**
 * Bump when the format of cached step outputs changes, so old caches are ignored.
 * 2: outputs are `{ last_modified, elements }` and partition keys no longer hold the modification time.
 */
const CACHE_FORMAT = 2;

/**
 * Run the pipeline: index → download → partition → chunk → embed → enrich → stage → upload. Each record
 * moves to its next step as soon as the previous one is done (`max_connections` records in flight;
 * partitioning on `num_processes` worker threads). Every step's output is cached in the work dir by the
 * content hash of its input and the step's configuration (secrets excluded), and a ledger per
 * destination records what was uploaded: unchanged records are skipped, edited ones reprocessed, and a
 * killed run resumes where it stopped. A failing record is reported with its step and reason and never
 * stops the others (unless raise_on_error).
 */
export async function ingest(options: IngestOptions): Promise<IngestSummary> {
  const started = performance.now();
  const {
    source: sourceConfig,
    destination: destinationConfig,
    output_dir,
    onEvent,
    signal,
    ...flat
  } = options;
  const settings = parseSettings(flat);
  const { processor } = settings;
  const { source, destination, sourceKey, pairKey } = createConnectors(
    sourceConfig,
    destinationConfig,
    output_dir,
  );
  const embedder: EmbeddingProvider | undefined = settings.embedding.embedding_provider
    ? createEmbeddingProviderFromOptions(settings.embedding)
    : undefined;
  try {
    // The embedding size is known before any work, so a destination with a fixed vector size refuses a
    // mismatch now rather than at the first record.
    const dimension = embedder && !processor.dry_run ? await embedder.dimension() : undefined;
    await Promise.all([source.precheck(), destination.precheck({ dimension })]);
  } catch (error) {
    await embedder?.close();
    throw new IngestSetupError(`precheck failed: ${(error as Error).message}`, { cause: error });
  }

  const workDir = new WorkDir(processor.work_dir ?? defaultWorkDir());
  const ledger = new Ledger(workDir, pairKey);
  const configHash = stableHash({ steps: settings.stepKeys, pair: pairKey, format: CACHE_FORMAT });
  const summary = emptySummary();
  if (processor.dry_run) summary.plan = [];
  const limiter = new Limiter(processor.max_connections);
  const pool =
    !processor.dry_run && processor.num_processes > 1 && !processor.partition_by_api
      ? new PartitionPool(processor.num_processes)
      : undefined;
  let fatal: RecordFailedError | undefined;

  const fail = (record: RecordDescriptor | undefined, step: StepName, error: unknown) => {
    const failure: RecordFailure = {
      record: record?.display_name ?? '(source)',
      step,
      code: isServiceError(error) ? error.code : isConnectorError(error) ? error.stage : 'error',
      message: (error as Error)?.message ?? String(error),
    };
    summary.failed.push(failure);
    summary.steps[step].failed++;
    onEvent?.({ type: 'failed', failure });
    if (processor.raise_on_error) fatal ??= new RecordFailedError(failure);
  };

  /** Run a step (or take its cached output), counting and reporting it. */
  const step = async <T>(
    record: RecordDescriptor,
    name: StepName,
    run: () => Promise<{ value: T; cached: boolean }>,
  ) => {
    const t = performance.now();
    const { value, cached } = await run();
    summary.steps[name][cached ? 'cached' : 'done']++;
    onEvent?.({ type: 'step', record, step: name, cached, ms: performance.now() - t });
    return value;
  };

  /**
   * A step whose output is a list of elements cached under `key` (a hash of the content and the step's
   * configuration). The record's modification time is not part of the key: a touched but unchanged file
   * reuses the output, with metadata.last_modified brought up to date.
   */
  const cachedElements = (
    record: RecordDescriptor,
    name: StepName,
    key: string,
    lastModified: string | undefined,
    compute: () => Promise<Element[]>,
  ) =>
    step(record, name, async () => {
      const path = workDir.path('cache', name, `${key}.json`);
      if (!processor.reprocess) {
        const hit = await workDir.readJson<CachedStepOutput>(path);
        if (hit && Array.isArray(hit.elements)) {
          return { value: rebaseLastModified(hit.elements, hit.last_modified, lastModified), cached: true };
        }
      }
      const value = await compute();
      const output: CachedStepOutput = { last_modified: lastModified ?? null, elements: value };
      await workDir.writeJson(path, output);
      return { value, cached: false };
    });

  const processRecord = async (record: RecordDescriptor) => {
    // With raise_on_error, a record that was waiting for a slot when another failed does not start.
    if (fatal) return;
    const recordStart = performance.now();
    let current: StepName = 'download';
    try {
      const fetched = await step(record, 'download', async () => {
        if (source.readsInPlace) return { value: await source.fetch(record, signal), cached: false };
        const base = workDir.path('downloads', sourceKey, stableHash(record.identifier).slice(0, 40));
        const meta = await workDir.readJson<{
          version: string;
          filename: string;
          content_type?: string;
          last_modified?: string;
        }>(`${base}.json`);
        const bytes =
          meta?.version === record.version && !processor.re_download
            ? await workDir.readBytes(`${base}.bin`)
            : undefined;
        if (meta && bytes) return { value: { descriptor: record, data: bytes, ...meta }, cached: true };
        const value = await source.fetch(record, signal);
        await workDir.write(`${base}.bin`, value.data);
        await workDir.writeJson(`${base}.json`, {
          version: record.version,
          filename: value.filename,
          content_type: value.content_type,
          last_modified: value.last_modified,
        });
        return { value, cached: false };
      });

      current = 'partition';
      const lastModified = fetched.last_modified;
      const partitionKey = stableHash({
        content: contentHash(fetched.data),
        filename: fetched.filename,
        content_type: fetched.content_type,
        file_directory: fetched.file_directory,
        config: settings.stepKeys.partition,
        format: CACHE_FORMAT,
      });
      let elements = await cachedElements(record, 'partition', partitionKey, lastModified, async () => {
        const document = {
          data: fetched.data,
          filename: fetched.filename,
          file_directory: fetched.file_directory,
          content_type: fetched.content_type,
          last_modified: fetched.last_modified,
        };
        if (settings.api)
          return fillDocumentFacts(await partitionViaApi(document, settings.api, signal), document);
        if (pool)
          return pool.run({ ...document, data: fetched.data.slice(), options: settings.partition }, signal);
        return partition(document, settings.partition, { signal });
      });
      let key = partitionKey;

      if (settings.chunking.chunking_strategy) {
        current = 'chunk';
        key = stableHash({ input: key, config: settings.stepKeys.chunking });
        const input = elements;
        elements = await cachedElements(record, 'chunk', key, lastModified, () =>
          chunk(input, settings.chunking, {
            embedder,
            unique_element_ids: settings.partition.unique_element_ids,
          }),
        );
      }
      if (embedder) {
        current = 'embed';
        key = stableHash({ input: key, config: settings.stepKeys.embedding });
        const input = elements;
        elements = await cachedElements(record, 'embed', key, lastModified, () =>
          embedElementsWith(input, embedder),
        );
      }
      if (settings.enrichment.entity_extraction) {
        current = 'enrich';
        key = stableHash({ input: key, config: settings.stepKeys.enrichment });
        const input = elements;
        elements = await cachedElements(record, 'enrich', key, lastModified, () =>
          enrichElements(input, settings.enrichment),
        );
      }

      const dataSource = dataSourceOf(record.data_source);
      for (const element of elements) element.metadata.data_source = dataSource;
      applyMetadataFilter(elements, settings.metadataFilter);

      current = 'stage';
      const staged = await step(record, 'stage', async () => ({
        value: destination.stage(elements, record),
        cached: false,
      }));
      current = 'upload';
      await step(record, 'upload', async () => ({
        value: await destination.upload(staged, signal),
        cached: false,
      }));
      await ledger.write(record, configHash, elements.length);
      summary.succeeded++;
      summary.elements += elements.length;
      onEvent?.({ type: 'done', record, elements: elements.length, ms: performance.now() - recordStart });
    } catch (error) {
      fail(record, current, error);
    }
  };

  try {
    for await (const record of source.list(signal)) {
      if (fatal) break;
      summary.total++;
      summary.steps.index.done++;
      let { status, reason } = classifyRecord(record, await ledger.read(record), configHash, processor);
      if (status === 'unchanged' && destination.holds && !(await destination.holds(record))) {
        status = 'changed';
        reason = 'no longer present in the destination';
      }
      onEvent?.({ type: 'listed', record, status, reason });
      if (summary.plan) {
        summary.plan.push({ record: record.display_name, status, reason });
        continue;
      }
      if (status === 'unchanged') {
        summary.skipped++;
        onEvent?.({ type: 'skipped', record, reason });
        continue;
      }
      await limiter.run(() => processRecord(record));
    }
  } catch (error) {
    fail(undefined, 'index', error);
  } finally {
    await limiter.drain();
    await Promise.allSettled([source.close?.(), destination.close?.(), pool?.destroy(), embedder?.close()]);
  }
  summary.ms = performance.now() - started;
  if (fatal) throw fatal;
  return summary;
}

interface Settings {
  processor: ProcessorOptions;
  partition: PartitionOptionsInput & { unique_element_ids?: boolean };
  chunking: ReturnType<typeof chunkingOptionSet.parse>;
  embedding: ReturnType<typeof embeddingOptionSet.parse>;
  enrichment: ReturnType<typeof entityExtractionOptionSet.parse>;
  metadataFilter: { exclude?: string[] | undefined; include?: string[] | undefined };
  api: PartitionApiSettings | undefined;
  /** Each step's configuration without secrets: the cache keys and the ledger's configuration hash. */
  stepKeys: Record<'partition' | 'chunking' | 'embedding' | 'enrichment' | 'filter', unknown>;
}

function parseSettings(flat: Record<string, unknown>): Settings {
  const known = new Set([...processorOptions.fields, ...documentOptionSet.fields].map((f) => f.name));
  const unknown = Object.keys(flat).filter((key) => !known.has(key));
  if (unknown.length > 0) throw new IngestSetupError(`Unknown option: ${unknown.join(', ')}`);
  const processor = processorOptions.parse(pickOptions(processorOptions, flat));
  const partitionOptions = parsePartitionOptions(
    flat,
    processor.partition_by_api ? undefined : processor.additional_partition_args,
  );
  const chunking = chunkingOptionSet.parse(pickOptions(chunkingOptionSet, flat));
  const embedding = embeddingOptionSet.parse(pickOptions(embeddingOptionSet, flat));
  const enrichment = entityExtractionOptionSet.parse(pickOptions(entityExtractionOptionSet, flat));
  const metadataFilter = { exclude: processor.metadata_exclude, include: processor.metadata_include };
  validateMetadataFilter(metadataFilter);
  const api: PartitionApiSettings | undefined = processor.partition_by_api
    ? {
        endpoint: processor.partition_endpoint,
        apiKey: processor.api_key,
        timeoutMs: processor.api_timeout_ms,
        maxRetries: processor.api_max_retries,
        fields: { ...partitionOptions, ...(processor.additional_partition_args ?? {}) },
      }
    : undefined;
  return {
    processor,
    partition: partitionOptions,
    chunking,
    embedding,
    enrichment,
    metadataFilter,
    api,
    stepKeys: {
      partition: {
        options: partitionOptions,
        via: api ? { endpoint: api.endpoint, additional: processor.additional_partition_args } : 'local',
      },
      chunking,
      embedding: withoutSecrets(embedding, embeddingOptionSet),
      enrichment: withoutSecrets(enrichment, entityExtractionOptionSet),
      filter: metadataFilter,
    },
  };
}

/**
 * The partition options. additional_partition_args (SPEC 4.6) applies to local partitioning too, on top of
 * the flags and checked like them (an unknown name fails before any work); with partition_by_api it is
 * sent to the endpoint as given instead, since a server may know parameters this version does not.
 */
function parsePartitionOptions(
  flat: Record<string, unknown>,
  additional: Record<string, unknown> | undefined,
): PartitionOptionsInput & { unique_element_ids: boolean } {
  const given = pickOptions(partitionOptionSet, flat);
  try {
    return partitionOptionSet.parse({ ...given, ...additional }) as PartitionOptionsInput & {
      unique_element_ids: boolean;
    };
  } catch (error) {
    if (!additional || Object.keys(additional).length === 0) throw error;
    partitionOptionSet.parse(given); // a bad flag is reported as such
    throw new IngestSetupError(`additional_partition_args: ${(error as Error).message}`, { cause: error });
  }
}

function createConnectors(
  sourceConfig: ConnectorConfig,
  destinationConfig: ConnectorConfig | undefined,
  outputDir: string | undefined,
): { source: Source; destination: Destination; sourceKey: string; pairKey: string } {
  try {
    const { type: sourceType, ...sourceRest } = sourceConfig;
    const sourceDefinition = getConnector(sourceType);
    if (!sourceDefinition.createSource) throw new Error(`${sourceType} cannot be a source`);
    const resolvedDestination =
      destinationConfig ?? (outputDir ? { type: 'local', output_dir: outputDir } : undefined);
    if (!resolvedDestination) throw new Error('no destination: give a destination or output_dir');
    const { type: destinationType, ...destinationRest } = resolvedDestination;
    const destinationDefinition = getConnector(destinationType);
    if (!destinationDefinition.createDestination)
      throw new Error(`${destinationType} cannot be a destination`);
    const source = sourceDefinition.createSource(sourceRest);
    const destination = destinationDefinition.createDestination(destinationRest);
    // Keys come from the validated configs (defaults applied), so `ingest({...})` and the CLI, which
    // spells every default out, share caches and ledgers for the same configuration; a connector's
    // identity (e.g. an absolute folder) makes relative paths name the same data from anywhere.
    const sourceKey = stableHash({
      type: sourceType,
      identity: source.identity,
      config: withoutSecrets(
        sourceDefinition.sourceOptions?.parse(sourceRest) ?? sourceRest,
        sourceDefinition.sourceOptions,
      ),
    });
    const pairKey = stableHash({
      source: sourceKey,
      type: destinationType,
      identity: destination.identity,
      config: withoutSecrets(
        destinationDefinition.destinationOptions?.parse(destinationRest) ?? destinationRest,
        destinationDefinition.destinationOptions,
      ),
    });
    return {
      source,
      destination,
      sourceKey: sourceKey.slice(0, 16),
      pairKey: pairKey.slice(0, 16),
    };
  } catch (error) {
    if (error instanceof IngestSetupError) throw error;
    throw new IngestSetupError((error as Error).message, { cause: error });
  }
}
