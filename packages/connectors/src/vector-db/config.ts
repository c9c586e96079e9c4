import { defineOptions, field, type OptionsOutput } from '@docsvc/partition';

/** What happens to a value longer than its VARCHAR field's max_length (SPEC 7.2). */
export const VARCHAR_OVERFLOW_POLICIES = ['error', 'truncate'] as const;
export type VarcharOverflowPolicy = (typeof VARCHAR_OVERFLOW_POLICIES)[number];

/**
 * `service-ingest <source> … vector_db --uri … --collection-name …` (SPEC 2.4 plus the token of SPEC 5.6).
 * SPEC 2.4 lists user, password and db_name as required for the cloud form; here they are optional so that
 * a local server without authentication works too (the server then refuses or accepts the connection, and
 * the connection test says which). Every option can come from its VECTOR_DB_* environment variable on the
 * command line (flag > environment > default).
 */
export const vectorDbDestinationOptions = defineOptions({
  uri: field.string({
    required: true,
    env: 'VECTOR_DB_URI',
    description:
      'Address of the server: http://<host>:19530 for a local server, https://<host>:<port> for the hosted data-platform variant, or the cluster public endpoint URL of the cloud variant.',
    placeholder: '<uri>',
  }),
  user: field.string({
    env: 'VECTOR_DB_USER',
    description:
      'User name. On the hosted data-platform variant the fixed provider string (or that string, "_" and the account id); on the cloud variant a cluster user.',
    placeholder: '<user>',
  }),
  password: field.string({
    secret: true,
    env: 'VECTOR_DB_PASSWORD',
    description: 'Password of the user (on the hosted data-platform variant: a cloud user API key).',
    placeholder: '<password>',
  }),
  token: field.string({
    secret: true,
    env: 'VECTOR_DB_TOKEN',
    description:
      'Token of the cloud variants (an API key, or "user:password"); used instead of user and password when given.',
    placeholder: '<token>',
  }),
  ca_certs: field.string({
    env: 'VECTOR_DB_CA_CERTS',
    description:
      'Path of a PEM file of CA certificates that signed the server certificate, for an https:// uri served with a private CA (without it, the system CAs are trusted).',
    placeholder: '<path>',
  }),
  db_name: field.string({
    default: 'default',
    env: 'VECTOR_DB_DB_NAME',
    description: 'Database that holds the collection.',
    placeholder: '<name>',
  }),
  collection_name: field.string({
    required: true,
    env: 'VECTOR_DB_COLLECTION_NAME',
    description:
      'Collection to write to. It must exist with the SPEC 2.7 schema (`npm run vector-db:create` makes one).',
    placeholder: '<name>',
  }),
  batch_size: field.integer({
    default: 500,
    min: 1,
    max: 10_000,
    description: 'Rows per upsert request (a request is also cut at about 16 MiB).',
  }),
  varchar_overflow: field.enum(VARCHAR_OVERFLOW_POLICIES, {
    default: 'error',
    description:
      'A value longer than its VARCHAR field allows: "error" fails the record before anything of it is written, naming the element, field, length and limit; "truncate" cuts the value at a character boundary and warns.',
  }),
  max_concurrent_writes: field.integer({
    default: 1,
    min: 1,
    max: 32,
    description:
      'Write requests in flight at once across all records. Keep 1 for milvus-lite (it does not support concurrent writers to one collection); a Milvus cluster takes more.',
  }),
  timeout_ms: field.integer({
    default: 60_000,
    min: 1000,
    description: 'Time limit of one request to the server, in milliseconds.',
  }),
});

export type VectorDbConfig = OptionsOutput<typeof vectorDbDestinationOptions.shape>;
