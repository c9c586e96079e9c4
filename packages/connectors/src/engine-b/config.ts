import { defineOptions, field, type OptionsOutput } from '@docsvc/partition';
import { bulkWriteFields, searchSourceFields } from '../search-engine/options.js';

/**
 * engine_b (OpenSearch-compatible) options, SPEC 2.3 and 4.6. The cloud IAM credentials keep SPEC's
 * names (cloud_access_key_id, cloud_secret_access_key, cloud_session_token) on the CLI and in the API
 * alike; one name per concept.
 */

const connection = {
  hosts: field.stringList({
    required: true,
    env: 'ENGINE_B_HOST',
    description:
      'Hosts as <host-name> or <host-name>:<port> (the port for local instances; default 443 with use_ssl, else 9200), or URLs.',
    placeholder: '<hosts>',
  }),
  index_name: field.string({
    required: true,
    env: 'ENGINE_B_INDEX_NAME',
    description: 'Name of the index.',
    placeholder: '<name>',
  }),
  username: field.string({
    env: 'ENGINE_B_USERNAME',
    description: 'Basic authentication: master user name (with password).',
    placeholder: '<user>',
  }),
  password: field.string({
    secret: true,
    env: 'ENGINE_B_PASSWORD',
    description: 'Basic authentication: master user password (with username).',
    placeholder: '<password>',
  }),
  use_ssl: field.boolean({
    default: false,
    description: 'Connect with TLS (https) to hosts written without a scheme.',
  }),
  verify_certs: field.boolean({
    default: true,
    description: "Verify the server's certificate chain and host name (turn off only for tests).",
  }),
  ssl_show_warn: field.boolean({
    default: true,
    description: 'Warn when verify_certs is off.',
  }),
  ca_certs: field.string({
    env: 'ENGINE_B_CA_CERTS',
    description:
      'Path of the PEM file of the certificate authority (or bundle) that signed the server certificate.',
    placeholder: '<path>',
  }),
  client_cert: field.string({
    env: 'ENGINE_B_CLIENT_CERT',
    description:
      'Path of the client certificate (PEM) for certificate authentication, or of one PEM file holding both the certificate and its private key.',
    placeholder: '<path>',
  }),
  client_key: field.string({
    env: 'ENGINE_B_CLIENT_KEY',
    description: 'Path of the private key (PEM) of client_cert, when it is a separate file.',
    placeholder: '<path>',
  }),
  cloud_access_key_id: field.string({
    description:
      'IAM credentials: access key id of the cloud identity that is the domain master user (temporary with cloud_session_token).',
    placeholder: '<id>',
  }),
  cloud_secret_access_key: field.string({
    secret: true,
    description: 'IAM credentials: the matching secret access key.',
    placeholder: '<secret>',
  }),
  cloud_session_token: field.string({
    secret: true,
    description:
      'IAM credentials: the session token of temporary credentials (valid 15 minutes to 36 hours).',
    placeholder: '<token>',
  }),
  cloud_region: field.string({
    description:
      'Region requests are signed for; default: read from the host (search-x.us-east-1.es.amazonaws.com → us-east-1).',
    placeholder: '<region>',
  }),
  cloud_service: field.enum(['es', 'aoss'] as const, {
    description:
      'Service requests are signed for: es (managed domains) or aoss (serverless collections); default: read from the host.',
  }),
  max_retries: field.integer({
    default: 5,
    min: 0,
    max: 20,
    description: 'Retries, with exponential backoff, of a request refused with 429 or 502-504 or cut off.',
  }),
};

/** `service-ingest engine_b ...`: every document of an index becomes a record. */
export const engineBSourceOptions = defineOptions({ ...connection, ...searchSourceFields });
export type EngineBSourceConfig = OptionsOutput<typeof engineBSourceOptions.shape>;

/** `service-ingest ... engine_b ...`: one document per element (SPEC 2.7). */
export const engineBDestinationOptions = defineOptions({
  ...connection,
  ...bulkWriteFields({
    default: 5_000_000,
    description:
      'Largest body of one bulk request, in bytes (managed domains accept 10 MB on small instance types).',
  }),
  knn_engine: field.enum(['lucene', 'faiss', 'nmslib'] as const, {
    default: 'lucene',
    description:
      'k-NN engine of an auto-created index. lucene works on every build; faiss and nmslib need the native k-NN libraries.',
  }),
});
export type EngineBDestinationConfig = OptionsOutput<typeof engineBDestinationOptions.shape>;

export type EngineBConnectionConfig = Pick<EngineBSourceConfig, keyof typeof connection>;
