import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { paths } from './config.js';
import { requireServiceEnv, SERVICE_ENV_NAMES, serviceEnv } from './env.js';
import type { Context } from './service.js';
import { buildServiceEnv, exportLines, servicesToManage } from './service-env.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function context(): Context {
  const root = mkdtempSync(join(tmpdir(), 'docsvc-services-test-'));
  folders.push(root);
  return {
    paths: paths(root),
    serviceUser: null,
    secrets: {
      engineAPassword: 'pa$s',
      engineBPassword: 'b',
      vectorDbPassword: 'v',
      postgresPassword: 'p/w:@x',
    },
    log: () => {},
  };
}

describe('servicesToManage', () => {
  it('manages everything when no variable is set', () => {
    expect(servicesToManage({})).toEqual(['engine_a', 'engine_b', 'vector_db', 'postgres', 'proxy']);
  });

  it('leaves groups whose main variable is set to their owner', () => {
    expect(servicesToManage({ ENGINE_A_HOST: 'http://es:9200', TEST_DATABASE_URL: 'postgres://x' })).toEqual([
      'engine_b',
      'vector_db',
      'proxy',
    ]);
    expect(
      servicesToManage({
        ENGINE_A_HOST: 'a',
        ENGINE_B_HOST: 'b',
        VECTOR_DB_URI: 'c',
        TEST_DATABASE_URL: 'd',
      }),
    ).toEqual([]);
  });

  it('treats an empty variable as unset', () => {
    expect(servicesToManage({ ENGINE_A_HOST: '' })).toContain('engine_a');
  });
});

describe('buildServiceEnv', () => {
  it('describes the managed servers and reports a missing API key', () => {
    const ctx = context();
    const { vars, missing } = buildServiceEnv(ctx, ['engine_a', 'engine_b', 'postgres']);
    expect(vars.ENGINE_A_HOST).toBe('http://127.0.0.1:19200');
    expect(vars.ENGINE_A_PASSWORD).toBe('pa$s');
    expect(vars.ENGINE_B_HOST).toBe('http://127.0.0.1:9250');
    expect(vars.ENGINE_B_USERNAME).toBeUndefined();
    expect(vars.VECTOR_DB_URI).toBeUndefined();
    expect(new URL(vars.TEST_DATABASE_URL ?? '').password).toBe(encodeURIComponent('p/w:@x'));
    expect(missing).toEqual(['the engine_a API key (run `up` once)']);
  });

  it('points at the vector_db TLS front, with its credentials, when the proxy runs too', () => {
    const ctx = context();
    expect(buildServiceEnv(ctx, ['vector_db']).vars).toEqual({ VECTOR_DB_URI: 'http://127.0.0.1:19531' });
    const { vars } = buildServiceEnv(ctx, ['vector_db', 'proxy']);
    expect(vars).toMatchObject({
      VECTOR_DB_URI: 'http://127.0.0.1:19531',
      VECTOR_DB_PROXY_URI: 'https://127.0.0.1:19533',
      VECTOR_DB_PROXY_USER: 'docsvc',
      VECTOR_DB_PROXY_PASSWORD: 'v',
    });
    expect(vars.VECTOR_DB_PROXY_CA_CERTS).toMatch(/ca\.(crt|pem)$/);
  });

  it('reads the stored API key', () => {
    const ctx = context();
    mkdirSync(ctx.paths.run('engine-a'), { recursive: true });
    writeFileSync(
      join(ctx.paths.run('engine-a'), 'api-key.json'),
      JSON.stringify({ id: 'key-id', api_key: 'secret', encoded: 'a2V5LWlkOnNlY3JldA==' }),
    );
    const { vars, missing } = buildServiceEnv(ctx, ['engine_a']);
    expect(missing).toEqual([]);
    expect(vars).toMatchObject({
      ENGINE_A_CLOUD_API_KEY_ID: 'key-id',
      ENGINE_A_CLOUD_API_KEY: 'secret',
      ENGINE_A_API_KEY_ENCODED: 'a2V5LWlkOnNlY3JldA==',
    });
  });
});

describe('exportLines', () => {
  it('survives a round trip through sh, quotes included', () => {
    const tricky = `it's $HOME "and" \`this\``;
    const script = `${exportLines({ ENGINE_A_PASSWORD: tricky, VECTOR_DB_URI: 'http://x' })}\nprintf %s "$ENGINE_A_PASSWORD"`;
    expect(execFileSync('sh', ['-c', script], { encoding: 'utf8' })).toBe(tricky);
  });
});

describe('serviceEnv', () => {
  it('groups the variables and ignores empty ones', () => {
    const env = serviceEnv({ ENGINE_B_HOST: 'https://h', ENGINE_B_USERNAME: '', VECTOR_DB_URI: 'http://v' });
    expect(env.engineB.host).toBe('https://h');
    expect(env.engineB.username).toBeUndefined();
    expect(env.vectorDb.uri).toBe('http://v');
    expect(env.engineA.host).toBeUndefined();
  });

  it('names every variable once', () => {
    expect(new Set(SERVICE_ENV_NAMES).size).toBe(SERVICE_ENV_NAMES.length);
  });

  it('fails loudly when a required variable is missing', () => {
    expect(() => requireServiceEnv('ENGINE_A_HOST', {})).toThrow(/ENGINE_A_HOST is not set/);
    expect(requireServiceEnv('ENGINE_A_HOST', { ENGINE_A_HOST: 'http://h' })).toBe('http://h');
  });
});
