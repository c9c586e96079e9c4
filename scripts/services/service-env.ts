import { HOST, PORTS, type ServiceName, USERS } from './config.js';
import { ENGINE_A_URL, readApiKey } from './engine-a.js';
import { ENGINE_B_URL } from './engine-b.js';
import type { ServiceEnvName } from './env.js';
import { postgresUrl } from './postgres.js';
import type { Context } from './service.js';
import { caFingerprint, tlsFiles } from './tls.js';
import { VECTOR_DB_URI } from './vector-db.js';

/**
 * Which servers a test run must start, and the variables that describe the ones we manage. A group whose
 * main variable is already set (ENGINE_A_HOST, ENGINE_B_HOST, VECTOR_DB_URI, TEST_DATABASE_URL) belongs to
 * whoever set it: we start nothing for it and set none of its variables.
 */
export function servicesToManage(env: NodeJS.ProcessEnv = process.env): ServiceName[] {
  const given = (name: string) => (env[name] ?? '') !== '';
  const managed: ServiceName[] = [];
  if (!given('ENGINE_A_HOST')) managed.push('engine_a');
  if (!given('ENGINE_B_HOST')) managed.push('engine_b');
  if (!given('VECTOR_DB_URI')) managed.push('vector_db');
  if (!given('TEST_DATABASE_URL')) managed.push('postgres');
  if (managed.some((name) => name === 'engine_a' || name === 'engine_b' || name === 'vector_db'))
    managed.push('proxy');
  return managed;
}

/**
 * The variables for the managed servers. Needs the servers' files (API key, certificates) in place, i.e.
 * `up` has run at least once; what is missing is reported in `missing`.
 */
export function buildServiceEnv(
  ctx: Context,
  managed: readonly ServiceName[],
): { vars: Partial<Record<ServiceEnvName, string>>; missing: string[] } {
  const vars: Partial<Record<ServiceEnvName, string>> = {};
  const missing: string[] = [];
  const withProxy = managed.includes('proxy');
  const tls = tlsFiles(ctx);
  let fingerprint: string | undefined;
  if (withProxy) {
    try {
      fingerprint = caFingerprint(ctx);
    } catch {
      missing.push('the test CA (run `up` once)');
    }
  }
  if (managed.includes('engine_a')) {
    vars.ENGINE_A_HOST = ENGINE_A_URL;
    vars.ENGINE_A_USERNAME = USERS.engineA;
    vars.ENGINE_A_PASSWORD = ctx.secrets.engineAPassword;
    const key = readApiKey(ctx);
    if (key) {
      vars.ENGINE_A_CLOUD_API_KEY = key.api_key;
      vars.ENGINE_A_CLOUD_API_KEY_ID = key.id;
      vars.ENGINE_A_API_KEY_ENCODED = key.encoded;
    } else {
      missing.push('the engine_a API key (run `up` once)');
    }
    if (withProxy) {
      vars.ENGINE_A_PROXY_HOST = `https://${HOST}:${PORTS.proxyEngineA}`;
      vars.ENGINE_A_CA_CERTS = tls.caCert;
      if (fingerprint) vars.ENGINE_A_SSL_ASSERT_FINGERPRINT = fingerprint;
    }
  }
  if (managed.includes('engine_b')) {
    vars.ENGINE_B_DIRECT_HOST = ENGINE_B_URL;
    if (withProxy) {
      vars.ENGINE_B_HOST = `https://${HOST}:${PORTS.proxyEngineB}`;
      vars.ENGINE_B_USERNAME = USERS.engineB;
      vars.ENGINE_B_PASSWORD = ctx.secrets.engineBPassword;
      vars.ENGINE_B_CA_CERTS = tls.caCert;
      vars.ENGINE_B_CLIENT_CERT = tls.clientCert;
      vars.ENGINE_B_CLIENT_KEY = tls.clientKey;
      vars.ENGINE_B_CLIENT_CERT_HOST = `https://${HOST}:${PORTS.proxyEngineBClientCert}`;
    } else {
      vars.ENGINE_B_HOST = ENGINE_B_URL;
    }
  }
  if (managed.includes('vector_db')) {
    vars.VECTOR_DB_URI = VECTOR_DB_URI;
    if (withProxy) {
      vars.VECTOR_DB_PROXY_URI = `https://${HOST}:${PORTS.proxyVectorDb}`;
      vars.VECTOR_DB_PROXY_USER = USERS.vectorDb;
      vars.VECTOR_DB_PROXY_PASSWORD = ctx.secrets.vectorDbPassword;
      vars.VECTOR_DB_PROXY_CA_CERTS = tls.caCert;
    }
  }
  if (managed.includes('postgres')) vars.TEST_DATABASE_URL = postgresUrl(ctx);
  return { vars, missing };
}

/** `export NAME='value'` lines, safe for `eval` in sh/bash/zsh. */
export function exportLines(vars: Partial<Record<string, string>>): string {
  const quote = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`;
  return Object.entries(vars)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => `export ${name}=${quote(value)}`)
    .join('\n');
}
