import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireServiceEnv, serviceEnv } from '../../../../scripts/services/env.js';
import { specProperties } from '../../../../scripts/services/smoke-support.js';
import {
  describeDestination,
  type EngineUnderTest,
} from '../search-engine/test-support/destination-suite.js';
import { deleteIndex, uniqueIndex } from '../search-engine/test-support/fixtures.js';
import { describeSource } from '../search-engine/test-support/source-suite.js';
import { indexPath } from '../search-engine/transport.js';
import { checkEngineA } from './check.js';
import { connectEngineA } from './client.js';
import { engineASourceOptions } from './config.js';
import { engineADialect } from './dialect.js';

/** engine_a against the real Elasticsearch 8 of the test services (security on) and its TLS front. */

const env = serviceEnv();
const host = requireServiceEnv('ENGINE_A_HOST');
const proxyHost = requireServiceEnv('ENGINE_A_PROXY_HOST');
const basic = { username: env.engineA.username, password: env.engineA.password };
const connection = { hosts: [host], ...basic };
const direct = new URL(host);

const engine: EngineUnderTest = {
  connector: 'engine_a',
  connection,
  direct: {
    host: direct.hostname,
    port: Number(direct.port),
    connection: (url) => ({ hosts: [url], ...basic }),
  },
  admin: () => connectEngineA(engineASourceOptions.parse({ ...connection, index_name: 'unused' })),
  expectedIndex: (dimension) => ({
    // SPEC 2.7 written out independently of the connector's mapping.ts (the test services' oracle).
    properties: specProperties(),
    embeddings: { type: 'dense_vector', dims: dimension, index: true, similarity: 'cosine' },
    settings: {},
  }),
};

describeDestination(engine);
describeSource(engine, engineADialect);

/** A TCP port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('engine_a connection check', () => {
  const admin = engine.admin();
  const index = uniqueIndex('check');
  const restricted = uniqueIndex('restricted');
  let readOnlyKey = '';
  let readOnlyKeyId = '';
  let serviceToken = '';
  const tokenName = `docsvc-${process.pid}-${Date.now().toString(36)}`;

  beforeAll(async () => {
    await admin.request({ method: 'PUT', path: indexPath(index) });
    await admin.request({ method: 'PUT', path: indexPath(restricted) });
    const { body: key } = await admin.request<{ id: string; encoded: string }>({
      method: 'POST',
      path: '/_security/api_key',
      body: {
        name: `docsvc-read-only-${tokenName}`,
        expiration: '1h',
        role_descriptors: {
          reader: { indices: [{ names: [restricted], privileges: ['read', 'view_index_metadata'] }] },
        },
      },
    });
    readOnlyKey = key.encoded;
    readOnlyKeyId = key.id;
    const { body: token } = await admin.request<{ token: { value: string } }>({
      method: 'POST',
      path: `/_security/service/elastic/fleet-server/credential/token/${tokenName}`,
    });
    serviceToken = token.token.value;
  });
  afterAll(async () => {
    await admin.request(
      { method: 'DELETE', path: `/_security/service/elastic/fleet-server/credential/token/${tokenName}` },
      { ignore: [404] },
    );
    await admin.request({ method: 'DELETE', path: '/_security/api_key', body: { ids: [readOnlyKeyId] } });
    await deleteIndex(admin, index);
    await deleteIndex(admin, restricted);
    await admin.close();
  });

  const check = (config: Record<string, unknown>, role: 'source' | 'destination' = 'source') =>
    checkEngineA({ index_name: index, ...config }, role);

  it('succeeds with basic auth, an API key (id + secret), and an encoded API key given as engine_api_key', async () => {
    expect(await check(connection)).toMatchObject({ ok: true });
    expect(
      await check({ hosts: [host], api_key: env.engineA.apiKey, api_key_id: env.engineA.apiKeyId }),
    ).toMatchObject({ ok: true });
    const encoded = await check({ hosts: [host], engine_api_key: env.engineA.apiKeyEncoded }, 'destination');
    expect(encoded).toMatchObject({ ok: true });
    expect(encoded.message).toContain(`index "${index}" exists`);
  });

  it('uses the username it is given (not a fixed one)', async () => {
    const result = await check({ hosts: [host], username: 'no-such-user', password: env.engineA.password });
    expect(result).toMatchObject({ ok: false, stage: 'auth' });
    expect(result.message).toContain('no-such-user');
  });

  it('says auth for a wrong password, and never shows the password', async () => {
    const result = await check({ ...connection, password: 'wrong-password-123' });
    expect(result).toMatchObject({ ok: false, stage: 'auth' });
    expect(result.message).not.toContain('wrong-password-123');
  });

  it('authenticates with a bearer token (a service account token) and refuses a bad one', async () => {
    // fleet-server's account may not read this index: a 403 shows the token itself was accepted.
    expect(await check({ hosts: [host], bearer_auth: serviceToken })).toMatchObject({
      ok: false,
      stage: 'permission',
    });
    expect(await check({ hosts: [host], bearer_auth: `${serviceToken}x` })).toMatchObject({
      ok: false,
      stage: 'auth',
    });
  });

  it('says permission when the credentials may not read the index, or may not write it', async () => {
    const other = await check({ hosts: [host], api_key: readOnlyKey });
    expect(other).toMatchObject({ ok: false, stage: 'permission' });
    const readOnly = await checkEngineA(
      { hosts: [host], api_key: readOnlyKey, index_name: restricted },
      'destination',
    );
    expect(readOnly).toMatchObject({ ok: false, stage: 'permission' });
    expect(readOnly.message).toMatch(/lack index, delete/);
    expect(
      await checkEngineA({ hosts: [host], api_key: readOnlyKey, index_name: restricted }, 'source'),
    ).toMatchObject({
      ok: true,
    });
  });

  it('says not_found for a missing source index; a destination index will be created', async () => {
    expect(await check({ ...connection, index_name: uniqueIndex('nothing') })).toMatchObject({
      ok: false,
      stage: 'not_found',
    });
    const destination = await check({ ...connection, index_name: uniqueIndex('nothing') }, 'destination');
    expect(destination).toMatchObject({ ok: true });
    expect(destination.message).toContain('will be created');
  });

  it('says dns for an unknown host and connect for a closed port', async () => {
    expect(await check({ ...connection, hosts: ['http://no-such-host.invalid:9200'] })).toMatchObject({
      ok: false,
      stage: 'dns',
    });
    expect(await check({ ...connection, hosts: [`http://127.0.0.1:${await closedPort()}`] })).toMatchObject({
      ok: false,
      stage: 'connect',
    });
  });

  it('verifies TLS with a CA file or a pinned fingerprint, and says tls when it cannot', async () => {
    const tls = { ...connection, hosts: [proxyHost] };
    expect(await check({ ...tls, ca_certs: env.engineA.caCerts })).toMatchObject({ ok: true });
    expect(await check({ ...tls, ssl_assert_fingerprint: env.engineA.sslAssertFingerprint })).toMatchObject({
      ok: true,
    });
    const untrusted = await check(tls);
    expect(untrusted).toMatchObject({ ok: false, stage: 'tls' });
    expect(untrusted.message).toContain('ca_certs');
    expect(await check({ ...tls, ssl_assert_fingerprint: '00'.repeat(32) })).toMatchObject({
      ok: false,
      stage: 'tls',
    });
    expect(await check({ ...tls, hosts: [proxyHost.replace('https:', 'http:')] })).toMatchObject({
      ok: false,
      stage: 'tls',
    });
    expect(await check({ ...connection, hosts: [host.replace('http:', 'https:')] })).toMatchObject({
      ok: false,
      stage: 'tls',
    });
  });

  it('says config for options that cannot work, naming the option', async () => {
    const several = await check({ ...connection, api_key: 'k' });
    expect(several).toMatchObject({ ok: false, stage: 'config' });
    expect(several.message).toContain('several authentication methods');
    expect(await check({ ...connection, ca_certs: '/no/such/ca.pem' })).toMatchObject({
      ok: false,
      stage: 'config',
    });
    expect(await check({ index_name: index })).toMatchObject({ ok: false, stage: 'config' });
    expect(await check({ ...connection, index_name: 'Not An Index' })).toMatchObject({
      ok: false,
      stage: 'config',
    });
  });
});
