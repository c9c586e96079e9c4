import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { isServiceError, parseOptionStrings, type RawValue, toKebabCase } from '@docsvc/partition';
import { isConnectorError } from '../errors.js';
import { vectorDbDestinationOptions } from './config.js';
import { createVectorDbCollection } from './index.js';

/**
 * `npm run vector-db:create -- --uri http://127.0.0.1:19530 --collection-name docs --dimension 384
 * [--extended] [--dynamic-fields]`: create the SPEC 2.7 collection, its index, and load it. The connection
 * flags are the destination's own (same names, same VECTOR_DB_* environment variables); an existing
 * collection that fits is left as it is.
 */

const CONNECTION = ['uri', 'user', 'password', 'token', 'db_name', 'collection_name', 'timeout_ms'];

const USAGE = `usage: npm run vector-db:create -- --uri <uri> --collection-name <name> --dimension <n> [--extended] [--dynamic-fields]
  [--user <user> --password <password> | --token <token>] [--db-name <name>]
  --dimension       vector length: the embedding model's (384 for all-MiniLM-L6-v2, 512 for the bundled local model)
  --extended        add every optional metadata field of SPEC 2.7
  --dynamic-fields  enable_dynamic_field: metadata without a field goes into $meta
Connection flags default to VECTOR_DB_URI, VECTOR_DB_USER, VECTOR_DB_PASSWORD, VECTOR_DB_TOKEN, VECTOR_DB_DB_NAME, VECTOR_DB_COLLECTION_NAME.`;

export async function main(argv: string[], out = process.stdout, err = process.stderr): Promise<number> {
  const connectionFields = vectorDbDestinationOptions.fields.filter((f) => CONNECTION.includes(f.name));
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        ...Object.fromEntries(
          connectionFields.map((f) => [toKebabCase(f.name), { type: 'string' as const }]),
        ),
        dimension: { type: 'string' },
        extended: { type: 'boolean', default: false },
        'dynamic-fields': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
    });
  } catch (error) {
    err.write(`${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const { values } = parsed;
  if (values.help) {
    out.write(`${USAGE}\n`);
    return 0;
  }
  const raw: Record<string, RawValue | undefined> = {};
  for (const { name, spec } of connectionFields) {
    const value = values[toKebabCase(name)] ?? (spec.env ? process.env[spec.env] : undefined);
    if (typeof value === 'string') raw[name] = value;
  }
  const dimension = Number(values.dimension);
  if (!Number.isInteger(dimension) || dimension < 1) {
    err.write(`--dimension must be a positive integer\n${USAGE}\n`);
    return 2;
  }
  try {
    const config = parseOptionStrings(vectorDbDestinationOptions, raw, { ignoreUnknown: false });
    const result = await createVectorDbCollection(config, {
      dimension,
      extended: values.extended === true,
      dynamic_fields: values['dynamic-fields'] === true,
    });
    const fields = result.layout.fields.map((f) => f.name).join(', ');
    out.write(
      `${result.created ? 'created' : 'already there, left as it is:'} collection "${config.collection_name}" (${fields}); index IVF_FLAT/COSINE on embeddings; loaded\n`,
    );
    return 0;
  } catch (error) {
    if (isConnectorError(error) || isServiceError(error)) {
      err.write(`error: ${error.message}\n`);
      return isServiceError(error) ? 2 : 1;
    }
    throw error;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2));
}
