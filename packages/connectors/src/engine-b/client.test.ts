import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configError } from '../search-engine/test-support/config-error.js';
import { engineBClientSetup, engineBHosts, readClientCertificate, signingEndpoint } from './client.js';
import { engineBSourceOptions } from './config.js';

const config = (extra: Record<string, unknown>) =>
  engineBSourceOptions.parse({ hosts: ['localhost:9200'], index_name: 'i', ...extra });

const block = (type: string, body: string) => `-----BEGIN ${type}-----\n${body}\n-----END ${type}-----`;
const dir = mkdtempSync(join(tmpdir(), 'engine-b-client-'));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe('engine_b hosts', () => {
  it('follows use_ssl for hosts without a scheme and refuses http:// with use_ssl', () => {
    expect(engineBHosts(config({ hosts: ['search-x.us-east-1.es.amazonaws.com'], use_ssl: true }))).toEqual([
      'https://search-x.us-east-1.es.amazonaws.com',
    ]);
    expect(engineBHosts(config({ hosts: ['localhost:9250'] }))).toEqual(['http://localhost:9250']);
    expect(configError(() => engineBHosts(config({ hosts: ['http://h:1'], use_ssl: true })))).toContain(
      'use_ssl',
    );
  });
});

describe('engine_b authentication', () => {
  it('uses basic, IAM or client certificate, and refuses basic together with IAM', () => {
    expect(engineBClientSetup(config({ username: 'u', password: 'p' })).auth).toBe('basic');
    expect(engineBClientSetup(config({})).auth).toBe('none');
    const iam = engineBClientSetup(
      config({
        hosts: ['search-d.eu-west-1.es.amazonaws.com'],
        use_ssl: true,
        cloud_access_key_id: 'AKID',
        cloud_secret_access_key: 'sk-secret',
        cloud_session_token: 'tok',
      }),
    );
    expect(iam.auth).toBe('iam');
    expect(iam.options.Connection?.name).toBe('SigV4Connection');
    const both = configError(() =>
      engineBClientSetup(
        config({
          username: 'u',
          password: 'p',
          cloud_access_key_id: 'A',
          cloud_secret_access_key: 'sk-secret',
        }),
      ),
    );
    expect(both).toContain('keep one');
    expect(both).not.toContain('sk-secret');
    expect(configError(() => engineBClientSetup(config({ cloud_access_key_id: 'A' })))).toContain(
      'cloud_secret_access_key',
    );
  });

  it('derives the signing region and service from the host, with overrides', () => {
    const aoss = config({ hosts: ['https://abc.us-west-2.aoss.amazonaws.com'] });
    expect(signingEndpoint(aoss, engineBHosts(aoss))).toEqual({ region: 'us-west-2', service: 'aoss' });
    const proxy = config({
      hosts: ['https://proxy.internal'],
      cloud_region: 'eu-north-1',
      cloud_service: 'es',
    });
    expect(signingEndpoint(proxy, engineBHosts(proxy))).toEqual({ region: 'eu-north-1', service: 'es' });
    const unknown = config({ hosts: ['https://proxy.internal'] });
    expect(configError(() => signingEndpoint(unknown, engineBHosts(unknown)))).toContain('cloud_region');
  });

  it('warns when certificate verification is off', () => {
    expect(engineBClientSetup(config({ hosts: ['https://h:1'], verify_certs: false })).warnings[0]).toContain(
      'verify_certs=false',
    );
    expect(engineBClientSetup(config({ hosts: ['https://h:1'] })).warnings).toEqual([]);
  });
});

describe('readClientCertificate', () => {
  const cert = block('CERTIFICATE', 'Y2VydA==');
  const chain = block('CERTIFICATE', 'aW50ZXJtZWRpYXRl');
  const key = block('PRIVATE KEY', 'a2V5');

  it('reads a combined PEM (certificates and key in one file, any order)', () => {
    const combined = file('combined.pem', `${key}\n${cert}\n${chain}\n`);
    expect(readClientCertificate(combined, undefined)).toEqual({
      cert: `${cert}\n${chain}\n`,
      key: `${key}\n`,
    });
  });

  it('reads separate certificate and key files', () => {
    const certPath = file('client.crt', `${cert}\n`);
    const keyPath = file('client.key', `${block('RSA PRIVATE KEY', 'cnNh')}\n`);
    expect(readClientCertificate(certPath, keyPath).key).toContain('BEGIN RSA PRIVATE KEY');
  });

  it('says what is missing or unusable', () => {
    expect(configError(() => readClientCertificate(file('only.crt', cert), undefined))).toContain(
      'client_key',
    );
    expect(configError(() => readClientCertificate(file('nocert.pem', key), undefined))).toContain(
      'no PEM certificate',
    );
    expect(
      configError(() =>
        readClientCertificate(
          file('enc.pem', `${cert}\n${block('ENCRYPTED PRIVATE KEY', 'ZW5j')}`),
          undefined,
        ),
      ),
    ).toContain('encrypted');
    expect(configError(() => readClientCertificate('/no/such.pem', undefined))).toContain('cannot read');
  });
});
