import { errors as es } from '@elastic/elasticsearch';
import { errors as os } from '@opensearch-project/opensearch';
import { describe, expect, it } from 'vitest';
import { isRetryable, reasonOf, toConnectorError } from './classify.js';

/**
 * The classification of the clients' own error objects. The network cases are exercised against real
 * servers in the integration suites; these pin the mapping rules, including cloud answers that no local
 * server gives (expired temporary credentials).
 */

const context = {
  connector: 'engine_b',
  host: 'https://h:443',
  index: 'idx',
  action: 'reading index "idx"',
  stage: 'read' as const,
};

function esResponse(statusCode: number, body: unknown) {
  return new es.ResponseError({ body, statusCode, headers: {}, warnings: null, meta: {} as never });
}

function osResponse(statusCode: number, body: unknown) {
  return new os.ResponseError({ body, statusCode, headers: {}, warnings: null, meta: {} as never });
}

describe('toConnectorError', () => {
  it.each([
    [new es.ConnectionError('getaddrinfo ENOTFOUND nowhere.invalid'), 'dns'],
    [new os.ConnectionError('getaddrinfo EAI_AGAIN nowhere.invalid'), 'dns'],
    [new es.ConnectionError('connect ECONNREFUSED 127.0.0.1:1'), 'connect'],
    [new os.ConnectionError('socket hang up'), 'connect'],
    [new es.ConnectionError('self-signed certificate in certificate chain'), 'tls'],
    [
      new es.ConnectionError(
        'Server certificate CA fingerprint does not match the value configured in caFingerprint',
      ),
      'tls',
    ],
    [new os.ConnectionError('0A00010B:SSL routines:ssl3_get_record:wrong version number'), 'tls'],
    [new es.TimeoutError('Request timed out'), 'connect'],
  ])('%s → %s', (error, stage) => {
    expect(toConnectorError(error, context).stage).toBe(stage);
  });

  it('maps statuses to auth, permission and not_found with the server reason', () => {
    const unauthorized = toConnectorError(
      esResponse(401, { error: { type: 'security_exception', reason: 'unable to authenticate user [u]' } }),
      context,
    );
    expect(unauthorized.stage).toBe('auth');
    expect(unauthorized.message).toContain('security_exception: unable to authenticate user [u]');
    expect(
      toConnectorError(osResponse(401, '<html><title>401 Authorization Required</title></html>'), context)
        .message,
    ).toContain('401 Authorization Required');
    expect(
      toConnectorError(
        esResponse(403, { error: { type: 'security_exception', reason: 'action denied' } }),
        context,
      ).stage,
    ).toBe('permission');
    const missing = toConnectorError(
      esResponse(404, { error: { type: 'index_not_found_exception', reason: 'no such index [idx]' } }),
      context,
    );
    expect(missing.stage).toBe('not_found');
    expect(missing.message).toContain('index "idx" does not exist');
  });

  it('says when temporary cloud credentials have expired (SPEC 5.5)', () => {
    for (const body of [
      { message: 'The security token included in the request is expired' },
      {
        error: {
          type: 'security_exception',
          reason: 'The security token included in the request is expired',
        },
      },
    ]) {
      const error = toConnectorError(osResponse(403, body), context);
      expect(error.stage).toBe('auth');
      expect(error.message).toMatch(/temporary cloud credentials have expired.*update the connector/);
    }
    const invalid = toConnectorError(
      osResponse(403, { message: 'The security token included in the request is invalid.' }),
      context,
    );
    expect(invalid.stage).toBe('auth');
  });

  it('recognises TLS mistakes answered over HTTP by a proxy', () => {
    expect(
      toConnectorError(
        esResponse(400, '<html><head><title>400 The plain HTTP request was sent to HTTPS port</title>'),
        context,
      ).stage,
    ).toBe('tls');
    expect(
      toConnectorError(osResponse(400, '<title>400 No required SSL certificate was sent</title>'), context)
        .message,
    ).toContain('client_cert');
  });

  it('keeps other failures in the stage of the work and never attaches the client error', () => {
    const error = toConnectorError(
      esResponse(400, { error: { type: 'mapper_parsing_exception', reason: 'bad' } }),
      {
        ...context,
        stage: 'write',
      },
    );
    expect(error.stage).toBe('write');
    expect((error.cause as Error).message).not.toContain('meta');
    expect(error.cause).not.toHaveProperty('meta');
  });
});

describe('isRetryable', () => {
  it('retries throttling, busy servers and dropped connections only', () => {
    expect(isRetryable(esResponse(429, {}))).toBe(true);
    expect(isRetryable(osResponse(503, {}))).toBe(true);
    expect(isRetryable(new es.ConnectionError('other side closed'))).toBe(true);
    expect(isRetryable(new os.ConnectionError('connect ECONNREFUSED 127.0.0.1:9'))).toBe(true);
    expect(isRetryable(esResponse(400, {}))).toBe(false);
    expect(isRetryable(esResponse(401, {}))).toBe(false);
    expect(isRetryable(new es.ConnectionError('getaddrinfo ENOTFOUND x'))).toBe(false);
    expect(isRetryable(new es.ConnectionError('self-signed certificate'))).toBe(false);
  });
});

describe('reasonOf', () => {
  it('reads engine errors, cloud messages, HTML titles and truncates', () => {
    expect(reasonOf({ error: { type: 't', reason: 'r' } })).toBe('t: r');
    expect(reasonOf({ error: { type: 't', root_cause: [{ reason: 'rc' }] } })).toBe('t: rc');
    expect(reasonOf({ Message: 'denied' })).toBe('denied');
    expect(reasonOf('{"error":"no handler found"}')).toBe('no handler found');
    expect(reasonOf('x'.repeat(1000)).length).toBeLessThan(310);
  });
});
