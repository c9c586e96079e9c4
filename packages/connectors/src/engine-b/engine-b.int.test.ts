import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireServiceEnv, serviceEnv } from '../../../../scripts/services/env.js';
import { specProperties } from '../../../../scripts/services/smoke-support.js';
import { getConnector } from '../registry.js';
import {
  describeDestination,
  type EngineUnderTest,
  record,
} from '../search-engine/test-support/destination-suite.js';
import {
  deleteIndex,
  documentCount,
  makeElements,
  uniqueIndex,
} from '../search-engine/test-support/fixtures.js';
import { describeSource } from '../search-engine/test-support/source-suite.js';
import { indexPath } from '../search-engine/transport.js';
import { checkEngineB } from './check.js';
import { connectEngineB } from './client.js';
import { engineBSourceOptions } from './config.js';
import { engineBDialect } from './dialect.js';

/**
 * engine_b against the real OpenSearch 2 (k-NN, Lucene engine) of the test services, reached through the
 * nginx TLS front (basic auth; client certificate) and directly.
 */

const env = serviceEnv();
const host = requireServiceEnv('ENGINE_B_HOST');
const directHost = requireServiceEnv('ENGINE_B_DIRECT_HOST');
const certHost = requireServiceEnv('ENGINE_B_CLIENT_CERT_HOST');
const caCerts = requireServiceEnv('ENGINE_B_CA_CERTS');
const connection = {
  hosts: [host],
  username: env.engineB.username,
  password: env.engineB.password,
  ca_certs: caCerts,
};
const direct = new URL(directHost);

const engine: EngineUnderTest = {
  connector: 'engine_b',
  connection,
  direct: { host: direct.hostname, port: Number(direct.port), connection: (url) => ({ hosts: [url] }) },
  admin: () => connectEngineB(engineBSourceOptions.parse({ hosts: [directHost], index_name: 'unused' })),
  expectedIndex: (dimension) => ({
    // SPEC 2.7 written out independently of the connector's mapping.ts (the test services' oracle).
    properties: specProperties(),
    embeddings: {
      type: 'knn_vector',
      dimension,
      method: {
        name: 'hnsw',
        engine: 'lucene',
        space_type: 'cosinesimil',
        parameters: { m: 16, ef_construction: 100 },
      },
    },
    settings: { 'index.knn': 'true', 'index.knn.algo_param.ef_search': '100' },
  }),
};

describeDestination(engine);
describeSource(engine, engineBDialect());

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('engine_b connection check', () => {
  const admin = engine.admin();
  const index = uniqueIndex('check');
  const certs = mkdtempSync(join(tmpdir(), 'engine-b-certs-'));
  const combined = join(certs, 'combined.pem');

  beforeAll(async () => {
    await admin.request({ method: 'PUT', path: indexPath(index) });
    writeFileSync(
      combined,
      `${readFileSync(requireServiceEnv('ENGINE_B_CLIENT_KEY'), 'utf8')}\n${readFileSync(requireServiceEnv('ENGINE_B_CLIENT_CERT'), 'utf8')}`,
    );
  });
  afterAll(async () => {
    await deleteIndex(admin, index);
    await admin.close();
  });

  const check = (config: Record<string, unknown>, role: 'source' | 'destination' = 'source') =>
    checkEngineB({ index_name: index, ...config }, role);

  it('succeeds with basic auth over TLS verified against the CA bundle', async () => {
    const result = await check(connection);
    expect(result).toMatchObject({ ok: true });
    expect(result.message).toContain(`index "${index}" exists`);
  });

  it('takes host:port with use_ssl as https', async () => {
    const hostPort = new URL(host).host;
    expect(await check({ ...connection, hosts: [hostPort], use_ssl: true })).toMatchObject({ ok: true });
  });

  it('says auth for a wrong password, and never shows it', async () => {
    const result = await check({ ...connection, password: 'wrong-password-456' });
    expect(result).toMatchObject({ ok: false, stage: 'auth' });
    expect(result.message).not.toContain('wrong-password-456');
  });

  it('says tls without the CA, and succeeds with a warning when verification is off', async () => {
    const { ca_certs: _, ...withoutCa } = connection;
    const untrusted = await check(withoutCa);
    expect(untrusted).toMatchObject({ ok: false, stage: 'tls' });
    const unverified = await check({ ...withoutCa, verify_certs: false });
    expect(unverified).toMatchObject({ ok: true });
    expect(unverified.message).toContain('verify_certs=false');
    expect(await check({ ...connection, hosts: [host.replace('https:', 'http:')] })).toMatchObject({
      ok: false,
      stage: 'tls',
    });
  });

  it('authenticates with a client certificate, combined or in two files', async () => {
    const base = { hosts: [certHost], ca_certs: caCerts };
    expect(
      await check({ ...base, client_cert: env.engineB.clientCert, client_key: env.engineB.clientKey }),
    ).toMatchObject({ ok: true });
    expect(await check({ ...base, client_cert: combined })).toMatchObject({ ok: true });
    const without = await check(base);
    expect(without).toMatchObject({ ok: false, stage: 'tls' });
    expect(without.message).toContain('client_cert');
  });

  it('says not_found for a missing source index; a destination index will be created', async () => {
    expect(await check({ ...connection, index_name: uniqueIndex('nothing') })).toMatchObject({
      ok: false,
      stage: 'not_found',
    });
    expect(await check({ ...connection, index_name: uniqueIndex('nothing') }, 'destination')).toMatchObject({
      ok: true,
    });
  });

  it('says dns for an unknown host and connect for a closed port', async () => {
    expect(await check({ hosts: ['no-such-host.invalid:9200'] })).toMatchObject({ ok: false, stage: 'dns' });
    expect(await check({ hosts: [`127.0.0.1:${await closedPort()}`] })).toMatchObject({
      ok: false,
      stage: 'connect',
    });
  });

  it('says config for credentials that cannot work together or a region it cannot tell', async () => {
    const both = await check({
      ...connection,
      cloud_access_key_id: 'AKID',
      cloud_secret_access_key: 'secret-xyz',
    });
    expect(both).toMatchObject({ ok: false, stage: 'config' });
    expect(both.message).not.toContain('secret-xyz');
    expect(
      await check({ hosts: [directHost], cloud_access_key_id: 'AKID', cloud_secret_access_key: 's' }),
    ).toMatchObject({ ok: false, stage: 'config' });
  });
});

describe('engine_b with IAM credentials (SigV4)', () => {
  // The local engine does not check signatures (that needs the cloud); this proves that signing leaves every
  // request intact, bulk bodies and point-in-time scans included. The signature itself is checked in
  // sigv4.test.ts against an independent implementation of the algorithm.
  const iam = {
    hosts: [directHost],
    cloud_access_key_id: 'AKIDEXAMPLE',
    cloud_secret_access_key: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
    cloud_session_token: 'session-token',
    cloud_region: 'us-east-1',
    cloud_service: 'es',
  };
  const admin = engine.admin();
  const index = uniqueIndex('sigv4');
  afterAll(async () => {
    await deleteIndex(admin, index);
    await admin.close();
  });

  it('checks, writes and reads through signed requests', async () => {
    expect(await checkEngineB({ ...iam, index_name: index }, 'destination')).toMatchObject({ ok: true });
    const destination = getConnector('engine_b').createDestination!({ ...iam, index_name: index });
    await destination.precheck();
    const staged = destination.stage(makeElements(50, { dimension: 4 }), record('/docs/signed.txt'));
    expect(await destination.upload(staged)).toEqual({ written: 50, deleted: 0 });
    await destination.close?.();
    expect(await documentCount(admin, index)).toBe(50);
    const source = getConnector('engine_b').createSource!({ ...iam, index_name: index, batch_size: 20 });
    await source.precheck();
    let listed = 0;
    for await (const _ of source.list()) listed++;
    expect(listed).toBe(50);
    await source.close?.();
  });
});
