import { defineOptions, field, type OptionsOutput } from '@docsvc/partition';
import { bulkWriteFields, searchSourceFields } from '../search-engine/options.js';

/**
 * engine_a (Elasticsearch-compatible) options, SPEC 2.2 and 4.6. Every option is declared here once; the
 * CLI flags (`--index-name`), the API payload names (`index_name`; SPEC 2.2's `engine_api_key` is an alias
 * of `api_key`) and the environment defaults of SPEC 4.6 come from these declarations.
 */

const connection = {
  hosts: field.stringList({
    env: 'ENGINE_A_HOST',
    description:
      'URLs of the cluster (https://host:443, http://localhost:9200; host:port means http:// unless ca_certs or ssl_assert_fingerprint is given). Not needed with cloud_id.',
    placeholder: '<urls>',
  }),
  index_name: field.string({
    required: true,
    env: 'ENGINE_A_INDEX_NAME',
    description: 'Name of the index.',
    placeholder: '<name>',
  }),
  cloud_id: field.string({
    env: 'ENGINE_A_CLOUD_ID',
    description: 'Cloud id of a cloud-hosted deployment (replaces hosts).',
    placeholder: '<id>',
  }),
  api_key: field.string({
    secret: true,
    aliases: ['engine_api_key'],
    env: 'ENGINE_A_CLOUD_API_KEY',
    description:
      'API key: with api_key_id, the key secret; alone, the encoded key (base64 of id:secret) as the cloud console shows it.',
    placeholder: '<key>',
  }),
  api_key_id: field.string({
    env: 'ENGINE_A_CLOUD_API_KEY_ID',
    description: 'Id of the API key whose secret api_key holds.',
    placeholder: '<id>',
  }),
  username: field.string({
    env: 'ENGINE_A_USERNAME',
    description: 'Basic authentication: user name (with password).',
    placeholder: '<user>',
  }),
  password: field.string({
    secret: true,
    env: 'ENGINE_A_PASSWORD',
    description: 'Basic authentication: password (with username).',
    placeholder: '<password>',
  }),
  bearer_auth: field.string({
    secret: true,
    env: 'ENGINE_A_BEARER_TOKEN',
    description: 'Bearer token (a service account or OAuth token).',
    placeholder: '<token>',
  }),
  ca_certs: field.string({
    env: 'ENGINE_A_CA_CERTS',
    description:
      'Path of the PEM file of the certificate authority (or bundle) that signed the server certificate.',
    placeholder: '<path>',
  }),
  ssl_assert_fingerprint: field.string({
    env: 'ENGINE_A_SSL_ASSERT_FINGERPRINT',
    description:
      'SHA-256 fingerprint (AA:BB:…) of the CA certificate at the top of the chain the server sends; pins it (instead of verifying the chain when no ca_certs is given).',
    placeholder: '<sha256>',
  }),
  max_retries: field.integer({
    default: 5,
    min: 0,
    max: 20,
    description: 'Retries, with exponential backoff, of a request refused with 429 or 502-504 or cut off.',
  }),
};

/** `service-ingest engine_a ...`: every document of an index becomes a record. */
export const engineASourceOptions = defineOptions({ ...connection, ...searchSourceFields });
export type EngineASourceConfig = OptionsOutput<typeof engineASourceOptions.shape>;

/** `service-ingest ... engine_a ...`: one document per element (SPEC 2.7). */
export const engineADestinationOptions = defineOptions({
  ...connection,
  ...bulkWriteFields({
    default: 15_000_000,
    description: 'Largest body of one bulk request, in bytes (a single larger element is sent alone).',
  }),
});
export type EngineADestinationConfig = OptionsOutput<typeof engineADestinationOptions.shape>;

export type EngineAConnectionConfig = Pick<EngineASourceConfig, keyof typeof connection>;
