#!/usr/bin/env node
import { destinationTypes, getConnector, isConnectorError, sourceTypes } from '@docsvc/connectors';
import { documentOptionSet, isServiceError } from '@docsvc/partition';
import { Command, CommanderError } from 'commander';
import { processorOptions } from '../options.js';
import { type ConnectorConfig, IngestSetupError, ingest, RecordFailedError } from '../pipeline/ingest.js';
import { addOptionSet, readOptionSet } from './flags.js';
import { createReporter } from './report.js';

/**
 * `service-ingest <source> [source options] [<destination> [destination options]]`.
 * Exit codes: 0 all records succeeded, 1 some failed, 2 usage or precheck error.
 */
export function buildProgram(): Command {
  const program = new Command('service-ingest')
    .description('Partition documents from a source and write the elements to a destination.')
    .addHelpText(
      'after',
      `
Exit codes: 0 all records processed, 1 some records failed, 2 usage or precheck error.
Option values: flag > environment variable > default.

Examples:
  service-ingest local --input-path docs --recursive --output-dir out
  service-ingest local --input-path report.pdf --strategy fast local --output-dir out`,
    )
    .exitOverride()
    .enablePositionalOptions()
    .showHelpAfterError();

  for (const sourceType of sourceTypes()) {
    const definition = getConnector(sourceType);
    const source = program
      .command(sourceType)
      .description(`Read from ${definition.description}`)
      .exitOverride()
      .enablePositionalOptions();
    if (definition.sourceOptions) addOptionSet(source, definition.sourceOptions);
    addOptionSet(source, processorOptions);
    addOptionSet(source, documentOptionSet);
    source.option(
      '--output-dir <dir>',
      'Write results as JSON files here (the local destination) when no destination is named.',
    );
    source.action(async (opts: Record<string, unknown>) => {
      if (!opts.outputDir)
        throw new CommanderError(2, 'usage', 'error: name a destination or give --output-dir');
      await run(sourceType, opts, { type: 'local', output_dir: String(opts.outputDir) });
    });

    for (const destinationType of destinationTypes()) {
      const destinationDefinition = getConnector(destinationType);
      const destination = source
        .command(destinationType)
        .description(`Write to ${destinationDefinition.description}`)
        .exitOverride();
      if (destinationDefinition.destinationOptions)
        addOptionSet(destination, destinationDefinition.destinationOptions);
      destination.action(async (destinationOpts: Record<string, unknown>) => {
        const config: ConnectorConfig = {
          type: destinationType,
          ...(destinationDefinition.destinationOptions
            ? readOptionSet(destinationDefinition.destinationOptions, destinationOpts)
            : {}),
        };
        await run(sourceType, source.opts(), config);
      });
    }
  }
  return program;
}

async function run(
  sourceType: string,
  opts: Record<string, unknown>,
  destination: ConnectorConfig,
): Promise<void> {
  const definition = getConnector(sourceType);
  const sourceConfig = definition.sourceOptions ? readOptionSet(definition.sourceOptions, opts) : {};
  const processor = readOptionSet(processorOptions, opts);
  const documentOptions = readOptionSet(documentOptionSet, opts) as Record<string, unknown>;
  const reporter = createReporter(process.stderr);
  const summary = await ingest({
    source: { type: sourceType, ...(sourceConfig as object) },
    destination,
    ...processor,
    ...documentOptions,
    onEvent: reporter.onEvent,
  });
  reporter.finish(summary);
  process.exitCode = summary.failed.length > 0 ? 1 : 0;
}

export async function main(argv: string[]): Promise<number> {
  try {
    await buildProgram().parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (
        error.code === 'commander.helpDisplayed' ||
        error.code === 'commander.version' ||
        error.code === 'commander.help'
      ) {
        return 0;
      }
      if (error.code === 'usage') process.stderr.write(`${error.message}\n`);
      return 2;
    }
    if (error instanceof RecordFailedError) {
      process.stderr.write(`error: ${error.message}\n`);
      return 1;
    }
    if (
      error instanceof IngestSetupError ||
      isConnectorError(error) ||
      (isServiceError(error) && error.code === 'invalid_option')
    ) {
      process.stderr.write(`error: ${(error as Error).message}\n`);
      return 2;
    }
    process.stderr.write(`error: ${(error as Error).stack ?? String(error)}\n`);
    return 1;
  }
}

process.exitCode = await main(process.argv);
