import { performance } from 'node:perf_hooks';
import {
  type Destination,
  getConnector,
  isConnectorError,
  type RecordDescriptor,
  type Source,
} from '@docsvc/connectors';
import {
  type DocumentOptionsInput,
  documentOptionSet,
  type Element,
  isServiceError,
  pickOptions,
  processDocument,
} from '@docsvc/partition';
import { type ProcessorOptionsInput, processorOptions } from '../options.js';
import type { IngestEvent, IngestSummary, RecordFailure, StepName } from './events.js';
import { Limiter } from './limiter.js';

export interface ConnectorConfig {
  type: string;
  [option: string]: unknown;
}

/**
 * `ingest()` options: connector configs nested (a source and a destination may both have, say,
 * `index_name`), partition and processor options flat, with the same snake_case names as the CLI flags
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

/** Thrown before any work when options or a connector precheck fail (the CLI exits with 2). */
export class IngestSetupError extends Error {
  override readonly name = 'IngestSetupError';
}

/** Raised with raise_on_error at the first failing record. */
export class RecordFailedError extends Error {
  override readonly name = 'RecordFailedError';
  constructor(readonly failure: RecordFailure) {
    super(`${failure.record}: [${failure.step}] ${failure.message}`);
  }
}

/**
 * Run the pipeline: index → download → partition → stage → upload, each record moving on as soon as its
 * previous step is done, `num_processes` records at a time. A failing record is reported with its step and
 * reason and never stops the others (unless raise_on_error).
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
  const processor = processorOptions.parse(pickOptions(processorOptions, flat));
  const documentOptions = documentOptionSet.parse(
    pickOptions(documentOptionSet, flat),
  ) as DocumentOptionsInput;
  const known = new Set([...processorOptions.fields, ...documentOptionSet.fields].map((f) => f.name));
  const unknown = Object.keys(flat).filter((key) => !known.has(key));
  if (unknown.length > 0) throw new IngestSetupError(`Unknown option: ${unknown.join(', ')}`);

  const { source, destination } = createConnectors(sourceConfig, destinationConfig, output_dir);
  await Promise.all([source.precheck(), destination.precheck()]).catch((error: unknown) => {
    throw new IngestSetupError(`precheck failed: ${(error as Error).message}`, { cause: error });
  });

  const summary: IngestSummary = { total: 0, succeeded: 0, failed: [], elements: 0, ms: 0 };
  const limiter = new Limiter(processor.num_processes);
  let fatal: RecordFailedError | undefined;

  const fail = (record: RecordDescriptor | undefined, step: StepName, error: unknown) => {
    const failure: RecordFailure = {
      record: record?.display_name ?? '(source)',
      step,
      code: isServiceError(error) ? error.code : isConnectorError(error) ? error.stage : 'error',
      message: (error as Error)?.message ?? String(error),
    };
    summary.failed.push(failure);
    onEvent?.({ type: 'failed', failure });
    if (processor.raise_on_error) fatal ??= new RecordFailedError(failure);
  };

  const processRecord = async (record: RecordDescriptor) => {
    const recordStart = performance.now();
    let step: StepName = 'download';
    try {
      const fetched = await source.fetch(record, signal);
      step = 'partition';
      const elements: Element[] = await processDocument(
        {
          data: fetched.data,
          filename: fetched.filename,
          file_directory: fetched.file_directory,
          content_type: fetched.content_type,
          last_modified: fetched.last_modified,
        },
        documentOptions,
        { signal },
      );
      for (const element of elements) element.metadata.data_source = record.data_source;
      step = 'stage';
      const staged = destination.stage(elements, record);
      step = 'upload';
      await destination.upload(staged, signal);
      summary.succeeded++;
      summary.elements += elements.length;
      onEvent?.({ type: 'done', record, elements: elements.length, ms: performance.now() - recordStart });
    } catch (error) {
      fail(record, step, error);
    }
  };

  try {
    for await (const record of source.list(signal)) {
      if (fatal) break;
      summary.total++;
      onEvent?.({ type: 'listed', record });
      await limiter.run(() => processRecord(record));
    }
  } catch (error) {
    fail(undefined, 'index', error);
  } finally {
    await limiter.drain();
    await Promise.allSettled([source.close?.(), destination.close?.()]);
  }
  summary.ms = performance.now() - started;
  if (fatal) throw fatal;
  return summary;
}

function createConnectors(
  sourceConfig: ConnectorConfig,
  destinationConfig: ConnectorConfig | undefined,
  outputDir: string | undefined,
): { source: Source; destination: Destination } {
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
    return {
      source: sourceDefinition.createSource(sourceRest),
      destination: destinationDefinition.createDestination(destinationRest),
    };
  } catch (error) {
    throw new IngestSetupError((error as Error).message, { cause: error });
  }
}
