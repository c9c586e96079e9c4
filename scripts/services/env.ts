/**
 * The environment variables that point tests (and developers) at the test services, read into one typed
 * object. SPEC 4.6 names are used where SPEC has them; the rest are ours (documented in docs/testing.md).
 * This module has no dependencies so that any test can import it cheaply.
 */

export const SERVICE_ENV_NAMES = [
  // engine_a (SPEC 4.6)
  'ENGINE_A_HOST',
  'ENGINE_A_USERNAME',
  'ENGINE_A_PASSWORD',
  'ENGINE_A_CLOUD_API_KEY',
  'ENGINE_A_CLOUD_API_KEY_ID',
  'ENGINE_A_CA_CERTS',
  'ENGINE_A_SSL_ASSERT_FINGERPRINT',
  // engine_a (ours)
  'ENGINE_A_API_KEY_ENCODED',
  'ENGINE_A_PROXY_HOST',
  // engine_b (SPEC 4.6)
  'ENGINE_B_HOST',
  'ENGINE_B_USERNAME',
  'ENGINE_B_PASSWORD',
  'ENGINE_B_CA_CERTS',
  'ENGINE_B_CLIENT_CERT',
  'ENGINE_B_CLIENT_KEY',
  // engine_b (ours)
  'ENGINE_B_CLIENT_CERT_HOST',
  'ENGINE_B_DIRECT_HOST',
  // vector_db and PostgreSQL (ours)
  'VECTOR_DB_URI',
  'VECTOR_DB_PROXY_URI',
  'VECTOR_DB_PROXY_USER',
  'VECTOR_DB_PROXY_PASSWORD',
  'VECTOR_DB_PROXY_CA_CERTS',
  'TEST_DATABASE_URL',
] as const;

export type ServiceEnvName = (typeof SERVICE_ENV_NAMES)[number];

export interface ServiceEnv {
  engineA: {
    /** Plain-HTTP URL of the server itself; security on (basic auth and API keys). */
    host?: string;
    username?: string;
    password?: string;
    /** The API key's secret (`api_key`), SPEC's ENGINE_A_CLOUD_API_KEY. */
    apiKey?: string;
    /** The API key's id, SPEC's ENGINE_A_CLOUD_API_KEY_ID. */
    apiKeyId?: string;
    /** base64(`id:api_key`): what `Authorization: ApiKey …` and SPEC 2.2 `engine_api_key` carry. */
    apiKeyEncoded?: string;
    /** HTTPS URL of the TLS front; credentials are engine_a's own. */
    proxyHost?: string;
    /** CA bundle that signed the TLS front's certificate. */
    caCerts?: string;
    /** SHA-256 fingerprint (AA:BB:…) of that CA, for fingerprint pinning instead of a CA file. */
    sslAssertFingerprint?: string;
  };
  engineB: {
    /** HTTPS URL behind which basic auth applies (the TLS front), or a plain URL of your own server. */
    host?: string;
    username?: string;
    password?: string;
    caCerts?: string;
    clientCert?: string;
    clientKey?: string;
    /** HTTPS URL of the front that requires the client certificate (and no password). */
    clientCertHost?: string;
    /** Plain-HTTP URL of the server itself, without any authentication. */
    directHost?: string;
  };
  vectorDb: {
    /** Plain gRPC address of the server itself, without authentication. */
    uri?: string;
    /** https:// address of the TLS front that checks credentials (user and password below). */
    proxyUri?: string;
    proxyUser?: string;
    proxyPassword?: string;
    /** CA bundle that signed the TLS front's certificate. */
    proxyCaCerts?: string;
  };
  postgres: { url?: string };
}

export function serviceEnv(env: NodeJS.ProcessEnv = process.env): ServiceEnv {
  const read = (name: ServiceEnvName): string | undefined => {
    const value = env[name];
    return value === undefined || value === '' ? undefined : value;
  };
  return {
    engineA: {
      host: read('ENGINE_A_HOST'),
      username: read('ENGINE_A_USERNAME'),
      password: read('ENGINE_A_PASSWORD'),
      apiKey: read('ENGINE_A_CLOUD_API_KEY'),
      apiKeyId: read('ENGINE_A_CLOUD_API_KEY_ID'),
      apiKeyEncoded: read('ENGINE_A_API_KEY_ENCODED'),
      proxyHost: read('ENGINE_A_PROXY_HOST'),
      caCerts: read('ENGINE_A_CA_CERTS'),
      sslAssertFingerprint: read('ENGINE_A_SSL_ASSERT_FINGERPRINT'),
    },
    engineB: {
      host: read('ENGINE_B_HOST'),
      username: read('ENGINE_B_USERNAME'),
      password: read('ENGINE_B_PASSWORD'),
      caCerts: read('ENGINE_B_CA_CERTS'),
      clientCert: read('ENGINE_B_CLIENT_CERT'),
      clientKey: read('ENGINE_B_CLIENT_KEY'),
      clientCertHost: read('ENGINE_B_CLIENT_CERT_HOST'),
      directHost: read('ENGINE_B_DIRECT_HOST'),
    },
    vectorDb: {
      uri: read('VECTOR_DB_URI'),
      proxyUri: read('VECTOR_DB_PROXY_URI'),
      proxyUser: read('VECTOR_DB_PROXY_USER'),
      proxyPassword: read('VECTOR_DB_PROXY_PASSWORD'),
      proxyCaCerts: read('VECTOR_DB_PROXY_CA_CERTS'),
    },
    postgres: { url: read('TEST_DATABASE_URL') },
  };
}

/**
 * The value of a variable an integration test cannot do without. Throws (so the test fails loudly)
 * instead of letting a test pass against nothing.
 */
export function requireServiceEnv(name: ServiceEnvName, env: NodeJS.ProcessEnv = process.env): string {
  const value = env[name];
  if (value === undefined || value === '') {
    throw new Error(
      `${name} is not set: integration tests need the test services (npm test starts them; or run ` +
        '`eval "$(npm run -s services -- env)"` after `npm run services -- up`, or see docs/testing.md)',
    );
  }
  return value;
}
