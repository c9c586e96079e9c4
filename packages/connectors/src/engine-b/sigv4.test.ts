import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signRequest } from './sigv4.js';

/**
 * The signature is checked against an independent implementation of AWS Signature Version 4, written
 * here from the published algorithm with node:crypto (canonical request → string to sign → HMAC chain),
 * over the headers the signer says it signed. This pins what matters for engine_b: the path encoded twice
 * (non-S3 rule), the sorted and encoded query, the host with its port, the body hash, the session token.
 */

const sha256 = (data: string) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();
const rfc3986 = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);

function expectedSignature(input: {
  method: string;
  path: string;
  query: [string, string][];
  headers: Record<string, string>;
  signed: string[];
  body: string;
  amzDate: string;
  region: string;
  service: string;
  secret: string;
}): string {
  const canonicalPath = input.path
    .split('/')
    .map((segment) => rfc3986(segment))
    .join('/');
  const canonicalQuery = input.query
    .map(([key, value]) => [rfc3986(key), rfc3986(value)])
    .sort(([a, x], [b, y]) => (a === b ? (x! < y! ? -1 : 1) : a! < b! ? -1 : 1))
    .map(([key, value]) => `${key}=${value}`)
    .join('&');
  const canonicalHeaders = input.signed.map((name) => `${name}:${input.headers[name]!.trim()}\n`).join('');
  const canonicalRequest = [
    input.method,
    canonicalPath,
    canonicalQuery,
    canonicalHeaders,
    input.signed.join(';'),
    sha256(input.body),
  ].join('\n');
  const day = input.amzDate.slice(0, 8);
  const scope = `${day}/${input.region}/${input.service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', input.amzDate, scope, sha256(canonicalRequest)].join('\n');
  let key = hmac(`AWS4${input.secret}`, day);
  for (const part of [input.region, input.service, 'aws4_request']) key = hmac(key, part);
  return createHmac('sha256', key).update(toSign).digest('hex');
}

describe('signRequest', () => {
  const now = () => new Date('2024-01-02T03:04:05Z');
  const body = '{"index":{"_id":"a"}}\n{"text":"x"}\n';

  it('signs method, doubly encoded path, sorted query, host:port, headers and body hash', async () => {
    const headers = await signRequest(
      {
        method: 'POST',
        protocol: 'https:',
        hostname: 'search-d.eu-west-1.es.amazonaws.com',
        port: '9443',
        path: '/movies/_doc/a%20b?refresh=true&filter_path=items.*.status',
        headers: {
          'Content-Type': 'application/x-ndjson',
          'content-length': String(Buffer.byteLength(body)),
        },
        body,
      },
      {
        region: 'eu-west-1',
        service: 'es',
        credentials: {
          accessKeyId: 'AKIDEXAMPLE',
          secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
        },
        now,
      },
    );
    expect(headers.host).toBe('search-d.eu-west-1.es.amazonaws.com:9443');
    expect(headers['x-amz-date']).toBe('20240102T030405Z');
    expect(headers['x-amz-content-sha256']).toBe(sha256(body));
    const match =
      /^AWS4-HMAC-SHA256 Credential=([^,]+), SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
        headers.authorization!,
      );
    expect(match?.[1]).toBe('AKIDEXAMPLE/20240102/eu-west-1/es/aws4_request');
    const signed = match![2]!.split(';');
    expect(signed).toEqual(
      expect.arrayContaining(['host', 'x-amz-date', 'x-amz-content-sha256', 'content-type']),
    );
    expect(match![3]).toBe(
      expectedSignature({
        method: 'POST',
        path: '/movies/_doc/a%20b',
        query: [
          ['refresh', 'true'],
          ['filter_path', 'items.*.status'],
        ],
        headers: {
          ...headers,
          'content-type': 'application/x-ndjson',
          'content-length': String(Buffer.byteLength(body)),
        },
        signed,
        body,
        amzDate: '20240102T030405Z',
        region: 'eu-west-1',
        service: 'es',
        secret: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
      }),
    );
  });

  it('adds and signs the session token of temporary credentials; no port for the default one', async () => {
    const headers = await signRequest(
      {
        method: 'GET',
        protocol: 'https:',
        hostname: 'abc.us-east-1.aoss.amazonaws.com',
        port: '',
        path: '/idx',
        headers: {},
        body: undefined,
      },
      {
        region: 'us-east-1',
        service: 'aoss',
        credentials: { accessKeyId: 'ASIAX', secretAccessKey: 's', sessionToken: 'session-token' },
        now,
      },
    );
    expect(headers.host).toBe('abc.us-east-1.aoss.amazonaws.com');
    expect(headers['x-amz-security-token']).toBe('session-token');
    expect(headers.authorization).toContain('/us-east-1/aoss/aws4_request');
    expect(headers.authorization).toMatch(/SignedHeaders=[^,]*x-amz-security-token/);
  });
});
