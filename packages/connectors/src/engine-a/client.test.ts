import { describe, expect, it } from 'vitest';
import { parseConnectorOptions } from '../search-engine/options.js';
import { configError } from '../search-engine/test-support/config-error.js';
import { cloudIdUrl, engineAAuth, engineAClientOptions, engineAHosts } from './client.js';
import { engineADestinationOptions, engineASourceOptions } from './config.js';

const base = { hosts: ['http://localhost:9200'], index_name: 'i' };
const config = (extra: Record<string, unknown>) => engineASourceOptions.parse({ ...base, ...extra });

describe('engine_a authentication', () => {
  it('builds each authentication mode from its options', () => {
    expect(engineAAuth(config({ api_key: 'secret', api_key_id: 'id' }))).toEqual({
      apiKey: { id: 'id', api_key: 'secret' },
    });
    expect(engineAAuth(config({ api_key: 'ZW5jb2RlZA==' }))).toEqual({ apiKey: 'ZW5jb2RlZA==' });
    expect(engineAAuth(config({ bearer_auth: 'tok' }))).toEqual({ bearer: 'tok' });
    // The username is the one given (the reference replaced it with "elastic").
    expect(engineAAuth(config({ username: 'ingest-bot', password: 'pw' }))).toEqual({
      username: 'ingest-bot',
      password: 'pw',
    });
    expect(engineAAuth(config({}))).toBeUndefined();
  });

  it('refuses incomplete or several authentication methods without echoing secrets', () => {
    expect(configError(() => engineAAuth(config({ api_key_id: 'id' })))).toContain('api_key_id');
    expect(configError(() => engineAAuth(config({ password: 'pw-secret' })))).not.toContain('pw-secret');
    const several = configError(() =>
      engineAAuth(config({ api_key: 'k-secret', username: 'u', password: 'p' })),
    );
    expect(several).toContain('several authentication methods');
    expect(several).not.toContain('k-secret');
  });

  it('accepts SPEC 2.2 engine_api_key as the api_key option', () => {
    const parsed = parseConnectorOptions(engineADestinationOptions, { ...base, engine_api_key: 'enc' });
    expect(parsed.api_key).toBe('enc');
  });
});

describe('engine_a hosts and TLS', () => {
  it('reads the cluster URL from a cloud id', () => {
    const id = `deployment:${Buffer.from('eu-west-1.aws.found.io:443$abc123$kib456').toString('base64')}`;
    expect(cloudIdUrl(id)).toBe('https://abc123.eu-west-1.aws.found.io');
    const withPort = `d:${Buffer.from('example.com:9243$es1$kb1').toString('base64')}`;
    expect(cloudIdUrl(withPort)).toBe('https://es1.example.com:9243');
    expect(configError(() => cloudIdUrl('not-a-cloud-id'))).toContain('cloud_id');
    const options = engineAClientOptions(engineASourceOptions.parse({ index_name: 'i', cloud_id: id }));
    expect(options.cloud).toEqual({ id });
    expect(options.nodes).toBeUndefined();
  });

  it('needs hosts or a cloud id, not both', () => {
    expect(configError(() => engineAHosts(config({ hosts: [] })))).toContain('hosts');
    const id = `d:${Buffer.from('h.io$e$k').toString('base64')}`;
    expect(configError(() => engineAHosts(config({ cloud_id: id })))).toContain('not both');
  });

  it('uses https for bare hosts when a CA or fingerprint is given', () => {
    const fingerprint = 'AB:'.repeat(31) + 'AB';
    expect(engineAHosts(config({ hosts: ['es.local:9243'], ssl_assert_fingerprint: fingerprint }))).toEqual([
      'https://es.local:9243',
    ]);
  });

  it('pins a fingerprint instead of verifying the chain, and verifies both with a CA too', () => {
    const fingerprint = 'ab'.repeat(32);
    const pinned = engineAClientOptions(
      config({ hosts: ['https://es.local:9243'], ssl_assert_fingerprint: fingerprint }),
    );
    expect(pinned.caFingerprint).toBe(fingerprint);
    expect(pinned.tls).toEqual({ rejectUnauthorized: false });
    expect(
      configError(() =>
        engineAClientOptions(config({ hosts: ['https://h'], ssl_assert_fingerprint: 'xyz' })),
      ),
    ).toContain('ssl_assert_fingerprint');
    expect(
      configError(() => engineAClientOptions(config({ ssl_assert_fingerprint: fingerprint }))),
    ).toContain('use https:// hosts');
    expect(configError(() => engineAClientOptions(config({ ca_certs: '/no/such/ca.pem' })))).toContain(
      'cannot read /no/such/ca.pem',
    );
  });
});
