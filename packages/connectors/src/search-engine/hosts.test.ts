import { isServiceError } from '@docsvc/partition';
import { describe, expect, it } from 'vitest';
import { parseHost, parseHosts } from './hosts.js';
import { checkIndexName } from './index-name.js';

const plain = { field: 'hosts', tls: false };
const tls = { field: 'hosts', tls: true };

describe('parseHost', () => {
  it('adds the scheme and default port to host and host:port entries', () => {
    expect(parseHost('localhost', plain)).toBe('http://localhost:9200');
    expect(parseHost('localhost:9250', plain)).toBe('http://localhost:9250');
    expect(parseHost('search-x.us-east-1.es.amazonaws.com', tls)).toBe(
      'https://search-x.us-east-1.es.amazonaws.com',
    );
    expect(parseHost('10.0.0.5:9243', tls)).toBe('https://10.0.0.5:9243');
    expect(parseHost('[::1]:9200', plain)).toBe('http://[::1]:9200');
  });

  it('takes URLs as written, whatever the TLS default', () => {
    expect(parseHost('https://127.0.0.1:19253', plain)).toBe('https://127.0.0.1:19253');
    expect(parseHost('http://127.0.0.1:9250/', tls)).toBe('http://127.0.0.1:9250');
    expect(parseHost('https://example.com/es/', plain)).toBe('https://example.com/es/');
    expect(parseHosts([' a:1 ', 'b'], plain)).toEqual(['http://a:1', 'http://b:9200']);
  });

  it('refuses empty entries, other schemes and credentials in URLs, naming the option', () => {
    for (const entry of ['', 'ftp://x', 'https://user:secret@host', 'http://']) {
      let error: unknown;
      try {
        parseHost(entry, plain);
      } catch (caught) {
        error = caught;
      }
      expect(isServiceError(error) && error.code === 'invalid_option').toBe(true);
      expect((error as Error).message).toContain('hosts');
      expect((error as Error).message).not.toContain('secret');
    }
  });
});

describe('checkIndexName', () => {
  it('accepts engine index names and refuses the rest, naming the option', () => {
    for (const name of ['movies', 'logs-2024.01', 'a_b+c', '.hidden'])
      expect(checkIndexName(name)).toBe(name);
    for (const name of [
      '',
      'Movies',
      'a b',
      'a/b',
      'a,b',
      '_x',
      '-x',
      '+x',
      '.',
      '..',
      'x'.repeat(256),
      'a:b',
    ]) {
      expect(() => checkIndexName(name)).toThrow(/index_name/);
    }
  });
});
