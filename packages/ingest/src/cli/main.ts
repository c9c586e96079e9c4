#!/usr/bin/env node
import { destinationTypes, getConnector, isConnectorError, sourceTypes } from '@docsvc/connectors';
import { documentOptionSet, isServiceError } from '@docsvc/partition';
import { Command, CommanderError } from 'commander';
import { defaultWorkDir, processorOptions } from '../options.js';
import { type ConnectorConfig, IngestSetupError, ingest, RecordFailedError } from '../pipeline/ingest.js';
import { CommandFlags } from './flags.js';
import { createReporter } from './report.js';

/** Said under every command's help: where option values come from, and what the exit code means. */
const RULES = `
Option values: flag > environment variable > default.
Exit codes: 0 all records processed (or unchanged), 1 some records failed, 2 usage or precheck error.`;

/**
 * `service-ingest <source> [source options] [<destination> [destination options]]`.
 * Exit codes: 0 all records succeeded (or were unchanged), 1 some failed, 2 usage or precheck error.
 */
export function buildProgram(): Command {
  const program = new Command('service-ingest')
    .description('Partition documents from a source and write the elements to a destination.')
    .addHelpText(
      'after',
      `${RULES}

Examples:
  service-ingest local --input-path docs --recursive --output-dir out
  service-ingest local --input-path docs --strategy fast --chunking-strategy by_title local --output-dir out
  service-ingest local --input-path docs --dry-run --output-dir out`,
    )
    .exitOverride()
    .enablePositionalOptions()
    .showHelpAfterError();

  for (const sourceType of sourceTypes()) {
    const definition = getConnector(sourceType);
    const source = program
      .command(sourceType)
      .description(`Read from ${definition.description}`)
      .addHelpText('after', RULES)
      .exitOverride()
      .enablePositionalOptions();
    const sourceFlags = new CommandFlags(source);
    if (definition.sourceOptions) sourceFlags.add(definition.sourceOptions);
    sourceFlags.add(processorOptions).add(documentOptionSet);
    source.option(
      '--output-dir <dir>',
      'Write results as JSON files here (the local destination) when no destination is named.',
    );
    source.action(async (opts: Record<string, unknown>) => {
      if (!opts.outputDir)
        throw new CommanderError(2, 'usage', 'error: name a destination or give --output-dir');
      await run(sourceType, sourceFlags, opts, { type: 'local', output_dir: String(opts.outputDir) });
    });

    for (const destinationType of destinationTypes()) {
      const destinationDefinition = getConnector(destinationType);
      const destination = source
        .command(destinationType)
        .description(`Write to ${destinationDefinition.description}`)
        .addHelpText('after', RULES)
        .exitOverride();
      const destinationFlags = new CommandFlags(destination);
      if (destinationDefinition.destinationOptions)
        destinationFlags.add(destinationDefinition.destinationOptions);
      destination.action(async (destinationOpts: Record<string, unknown>) => {
        const config: ConnectorConfig = {
          type: destinationType,
          ...(destinationDefinition.destinationOptions
            ? (destinationFlags.read(destinationDefinition.destinationOptions, destinationOpts) as object)
            : {}),
        };
        await run(sourceType, sourceFlags, source.opts(), config);
      });
    }
  }
  return program;
}

async function run(
  sourceType: string,
  flags: CommandFlags,
  opts: Record<string, unknown>,
  destination: ConnectorConfig,
): Promise<void> {
  const definition = getConnector(sourceType);
  const sourceConfig = definition.sourceOptions ? (flags.read(definition.sourceOptions, opts) as object) : {};
  const processor = flags.read(processorOptions, opts);
  const documentOptions = flags.read(documentOptionSet, opts) as Record<string, unknown>;
  if (processor.quiet && processor.verbose)
    throw new CommanderError(2, 'usage', 'error: --quiet and --verbose cannot be used together');
  const reporter = createReporter({
    out: process.stderr,
    format: processor.log_format,
    verbose: processor.verbose,
    quiet: processor.quiet,
  });
  reporter.start({
    source: sourceType,
    destination: destination.type,
    work_dir: processor.work_dir ?? defaultWorkDir(),
    dry_run: processor.dry_run,
  });
  const summary = await ingest({
    source: { type: sourceType, ...sourceConfig },
    destination,
    ...processor,
    ...documentOptions,
    onEvent: processor.dry_run ? undefined : reporter.onEvent,
  });
  if (summary.plan) {
    const json = processor.log_format === 'json';
    for (const item of summary.plan) {
      process.stdout.write(
        json
          ? `${JSON.stringify({ event: 'plan', ...item })}\n`
          : `${item.status.padEnd(9)} ${item.record}  (${item.reason})\n`,
      );
    }
    if (!json) {
      process.stdout.write(
        `\n${summary.plan.filter((p) => p.status !== 'unchanged').length} of ${summary.total} records would be processed.\n`,
      );
    }
  }
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
