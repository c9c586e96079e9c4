import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  connectEngineA,
  connectEngineB,
  type EngineTransport,
  engineASourceOptions,
  engineBSourceOptions,
} from '@docsvc/connectors';
import { elementsFromJson } from '@docsvc/partition';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireServiceEnv, serviceEnv } from '../../../../scripts/services/env.js';
import { runCli } from '../test-support/run-cli.js';

/**
 * `service-ingest` end to end with the real engine_a and engine_b of the test services: the CLI is the one
 * generated from the connector registry, run as a child process.
 */

const env = serviceEnv();
const engineAHost = requireServiceEnv('ENGINE_A_HOST');
const engineBHost = requireServiceEnv('ENGINE_B_HOST');
const engineBDirect = requireServiceEnv('ENGINE_B_DIRECT_HOST');

/** Every ENGINE_* variable emptied (the CLI reads them as defaults), then the given ones set. */
function cliEnv(set: Record<string, string | undefined>): Record<string, string> {
  const cleared: Record<string, string> = {};
  for (const name of Object.keys(process.env)) if (/^ENGINE_[AB]_/.test(name)) cleared[name] = '';
  for (const [name, value] of Object.entries(set)) if (value !== undefined) cleared[name] = value;
  return cleared;
}

const suffix = `${process.pid}-${Date.now().toString(36)}`;
let work: string;
let engineA: EngineTransport;
let engineB: EngineTransport;
const indexesA: string[] = [];
const indexesB: string[] = [];

async function count(transport: EngineTransport, index: string): Promise<number> {
  await transport.request({ method: 'POST', path: `/${index}/_refresh` });
  const { body } = await transport.request<{ count: number }>({ method: 'GET', path: `/${index}/_count` });
  return body.count;
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'ingest-connectors-'));
  engineA = connectEngineA(
    engineASourceOptions.parse({
      hosts: [engineAHost],
      username: env.engineA.username,
      password: env.engineA.password,
      index_name: 'unused',
    }),
  );
  engineB = connectEngineB(engineBSourceOptions.parse({ hosts: [engineBDirect], index_name: 'unused' }));
});

afterAll(async () => {
  for (const index of indexesA)
    await engineA.request({ method: 'DELETE', path: `/${index}` }, { ignore: [404] });
  for (const index of indexesB)
    await engineB.request({ method: 'DELETE', path: `/${index}` }, { ignore: [404] });
  await engineA.close();
  await engineB.close();
});

describe('service-ingest with engine_a and engine_b', () => {
  it('engine_b source → local files, connection from the ENGINE_B_* variables', async () => {
    const index = `cli-movies-${suffix}`;
    indexesB.push(index);
    await engineB.request({
      method: 'POST',
      path: `/${index}/_bulk`,
      querystring: { refresh: 'true' },
      bulkBody: [
        { index: { _id: '0' } },
        {
          title: 'Alice in Wonderland',
          ethnicity: 'American',
          director: 'Cecil Hepworth',
          plot: 'Alice follows a white rabbit.',
        },
        { index: { _id: '1' } },
        {
          title: 'The Great Train Robbery',
          ethnicity: 'American',
          director: 'Edwin S. Porter',
          plot: 'Bandits rob a train.',
        },
      ]
        .map((line) => `${JSON.stringify(line)}\n`)
        .join(''),
    });
    const out = join(work, 'out-b');
    const result = await runCli(
      [
        'engine_b',
        '--index-name',
        index,
        '--fields',
        'ethnicity,director,plot',
        '--work-dir',
        join(work, 'wd-b'),
        '--output-dir',
        out,
      ],
      cliEnv({
        ENGINE_B_HOST: engineBHost,
        ENGINE_B_USERNAME: env.engineB.username,
        ENGINE_B_PASSWORD: env.engineB.password,
        ENGINE_B_CA_CERTS: env.engineB.caCerts,
      }),
    );
    expect(result.stderr).toContain('2 of 2 records processed');
    expect(result.code).toBe(0);
    const elements = elementsFromJson(await readFile(join(out, `${index}-0.txt.json`), 'utf8'));
    expect(elements.map((element) => element.text)).toEqual([
      'ethnicity: American',
      'director: Cecil Hepworth',
      'plot: Alice follows a white rabbit.',
    ]);
    expect(elements[0]!.metadata.data_source).toMatchObject({
      url: `${engineBHost}/${index}/_doc/0`,
      version: '1',
      record_locator: { hosts: [engineBHost], index_name: index, document_id: '0' },
    });
  });

  it('local files → engine_a, then a shrunk file replaces its elements without orphans', async () => {
    const index = `cli-local-${suffix}`;
    indexesA.push(index);
    const docs = join(work, 'docs');
    await mkdir(docs, { recursive: true });
    await writeFile(
      join(docs, 'a.txt'),
      'Project Overview\n\nThe new search feature is ready.\n\nThe team is happy with it.\n\nNext steps follow.\n',
    );
    await writeFile(join(docs, 'b.txt'), 'Notes\n\nA second file with one paragraph.\n');
    const args = [
      'local',
      '--input-path',
      docs,
      '--work-dir',
      join(work, 'wd-a'),
      'engine_a',
      '--hosts',
      engineAHost,
      '--index-name',
      index,
      '--username',
      env.engineA.username ?? '',
      '--password',
      env.engineA.password ?? '',
    ];
    const first = await runCli(args, cliEnv({}));
    expect(first.stderr).toContain('2 of 2 records processed');
    expect(first.code).toBe(0);
    expect(await count(engineA, index)).toBe(6);
    const { body } = await engineA.request<{ hits: { hits: { _source: Record<string, unknown> }[] } }>({
      method: 'POST',
      path: `/${index}/_search`,
      body: { query: { match_phrase: { text: 'second file' } } },
    });
    expect(body.hits.hits[0]?._source).toMatchObject({
      record_id: join(docs, 'b.txt'),
      type: 'NarrativeText',
      metadata: { filename: 'b.txt', 'data_source-record_locator-protocol': 'file' },
    });

    await writeFile(join(docs, 'a.txt'), 'Project Overview\n\nOnly one paragraph is left.\n');
    const second = await runCli(args, cliEnv({}));
    expect(second.code).toBe(0);
    expect(second.stderr).toContain('1 unchanged');
    expect(await count(engineA, index)).toBe(4);
  });

  it('engine_a source → engine_b destination, with the index created on the way', async () => {
    const from = `cli-from-${suffix}`;
    const to = `cli-to-${suffix}`;
    indexesA.push(from);
    indexesB.push(to);
    await engineA.request({
      method: 'POST',
      path: `/${from}/_bulk`,
      querystring: { refresh: 'true' },
      bulkBody: [
        { index: { _id: 'x' } },
        { title: 'A short title', body: 'A body long enough to be a narrative sentence of its own.' },
      ]
        .map((line) => `${JSON.stringify(line)}\n`)
        .join(''),
    });
    const result = await runCli(
      [
        'engine_a',
        '--hosts',
        engineAHost,
        '--index-name',
        from,
        '--api-key',
        env.engineA.apiKey ?? '',
        '--api-key-id',
        env.engineA.apiKeyId ?? '',
        '--work-dir',
        join(work, 'wd-ab'),
        'engine_b',
        '--hosts',
        engineBHost,
        '--index-name',
        to,
        '--username',
        env.engineB.username ?? '',
        '--password',
        env.engineB.password ?? '',
        '--ca-certs',
        env.engineB.caCerts ?? '',
      ],
      cliEnv({}),
    );
    expect(result.code).toBe(0);
    expect(await count(engineB, to)).toBe(2);
  });

  it('exits 2 with the failing stage when a precheck fails, and never prints the password', async () => {
    const result = await runCli(
      [
        'engine_b',
        '--hosts',
        engineBHost,
        '--index-name',
        'whatever',
        '--username',
        env.engineB.username ?? '',
        '--password',
        'not-the-password-789',
        '--ca-certs',
        env.engineB.caCerts ?? '',
        '--work-dir',
        join(work, 'wd-fail'),
        '--output-dir',
        join(work, 'out-fail'),
      ],
      cliEnv({}),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/precheck failed: engine_b: authentication failed/);
    expect(result.stderr).not.toContain('not-the-password-789');
  });
});
