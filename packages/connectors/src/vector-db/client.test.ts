import { describe, expect, it } from 'vitest';
import { classifyTransportError, ensureSuccess, toConnectorError } from './client.js';

describe('error classification', () => {
  it.each([
    [14, '14 UNAVAILABLE: Name resolution failed for target dns:nohost.invalid:19530', 'dns'],
    [
      14,
      '14 UNAVAILABLE: No connection established. Last error: Error: connect ECONNREFUSED 127.0.0.1:1',
      'connect',
    ],
    [14, 'SSL routines:ssl3_get_record:wrong version number', 'tls'],
    [14, 'unable to verify the first certificate', 'tls'],
    [16, '16 UNAUTHENTICATED: auth check failure, please check username and password are correct', 'auth'],
    [7, '7 PERMISSION_DENIED: PrivilegeLoad: permission deny to user', 'permission'],
    [4, '4 DEADLINE_EXCEEDED: Deadline exceeded', 'connect'],
    [2, 'something else', 'unknown'],
  ])('code %s "%s" → %s', (code, text, stage) => {
    expect(classifyTransportError(code, text)).toBe(stage);
  });

  it('keeps the reason and drops the SDK retry note', () => {
    const error = toConnectorError(
      { code: 14, message: 'x', details: 'No connection established (retried 3 times, 150ms)' },
      'cannot connect to http://h:1',
    );
    expect(error.stage).toBe('connect');
    expect(error.message).toBe('cannot connect to http://h:1: No connection established');
  });

  it('turns failed statuses into errors with their stage', () => {
    expect(() => ensureSuccess({ error_code: 'Success', code: 0 }, 'x')).not.toThrow();
    expect(() =>
      ensureSuccess({ error_code: 'CollectionNotExists', code: 100, reason: 'gone' }, 'read'),
    ).toThrow('read: gone');
    try {
      ensureSuccess({ error_code: 'UnexpectedError', code: 1800, reason: 'auth failed' }, 'read');
    } catch (error) {
      expect((error as { stage: string }).stage).toBe('auth');
    }
  });
});
