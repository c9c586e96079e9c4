/**
 * Writes docs/options.md from the option sets themselves, so the documented names, flags, defaults and
 * descriptions can never drift from what the code accepts. `npm run docs:options` rewrites it;
 * scripts/options-doc.test.ts fails when it is stale.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { connectorDefinitions } from '@docsvc/connectors';
import { processorOptions } from '@docsvc/ingest';
import {
  type AnyOptionSet,
  chunkingOptionSet,
  embeddingOptionSet,
  entityExtractionOptionSet,
  partitionOptionSet,
  toKebabCase,
} from '@docsvc/partition';
import { serverOptions } from '@docsvc/server';

function table(set: AnyOptionSet, { env = false } = {}): string {
  const header = env
    ? '| option | CLI flag | env | type | default | description |'
    : '| option | CLI flag | type | default | description |';
  const rows = set.fields.map(({ name, spec }) => {
    const type = spec.kind === 'enum' ? (spec.values ?? []).join(' \\| ') : spec.kind.replace('_', ' ');
    const fallback =
      spec.default === undefined
        ? spec.required
          ? '**required**'
          : '—'
        : `\`${JSON.stringify(spec.default)}\``;
    const aliases = spec.aliases?.length
      ? ` Also accepted as ${spec.aliases.map((a) => `\`${a}\``).join(', ')}.`
      : '';
    const secret = spec.secret ? ' *Secret: never logged or returned.*' : '';
    const description = `${spec.description}${aliases}${secret}`.replaceAll('|', '\\|');
    const cells = [
      `\`${name}\``,
      `\`--${toKebabCase(name)}\``,
      ...(env ? [spec.env ? `\`${spec.env}\`` : ''] : []),
      type,
      fallback,
      description,
    ];
    return `| ${cells.join(' | ')} |`;
  });
  return [header, header.replace(/[^|]+/g, ' --- '), ...rows].join('\n');
}

export function renderOptionsDoc(): string {
  const sections = [
    '# Options',
    '',
    'Generated from the option sets by `npm run docs:options`; do not edit by hand.',
    '',
    'One name per option everywhere: snake_case in the library (`partition(data, { max_characters: 500 })`),',
    'in the API form (`-F max_characters=500`) and in forms; kebab-case on the command line (`--max-characters 500`).',
    'Lists accept comma- or `+`-joined values, JSON arrays or repeated flags/fields; booleans accept',
    'true/false/1/0/yes/no. On the CLI, `--x` sets a boolean and `--no-x` clears it.',
    '',
    '## Partitioning',
    '',
    table(partitionOptionSet),
    '',
    '## Chunking',
    '',
    'See [chunking.md](chunking.md) for the rules.',
    '',
    table(chunkingOptionSet),
    '',
    '## Embeddings',
    '',
    'See [embeddings.md](embeddings.md) for providers and dimensions.',
    '',
    table(embeddingOptionSet),
    '',
    '## Entity extraction',
    '',
    'See [enrichment.md](enrichment.md).',
    '',
    table(entityExtractionOptionSet),
    '',
    '## `service-ingest` processing',
    '',
    table(processorOptions),
    '',
  ];
  for (const connector of connectorDefinitions()) {
    if (connector.sourceOptions)
      sections.push(`## Source \`${connector.type}\``, '', table(connector.sourceOptions, { env: true }), '');
    if (connector.destinationOptions) {
      sections.push(
        `## Destination \`${connector.type}\``,
        '',
        table(connector.destinationOptions, { env: true }),
        '',
      );
    }
  }
  sections.push('## `service-server`', '', table(serverOptions, { env: true }), '');
  return sections.join('\n');
}

export const OPTIONS_DOC = join(import.meta.dirname, '../docs/options.md');

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  writeFileSync(OPTIONS_DOC, renderOptionsDoc());
  console.log(`wrote ${OPTIONS_DOC}`);
}
