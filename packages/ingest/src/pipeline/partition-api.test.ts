import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
// The project's own server, started in this process on a loopback port (test-only dependency: the server
// depends on this package, not the other way round).
import { startTestService, TEST_KEY } from '../../../server/src/test-support/service.js';
import { makePdf } from '../test-support/documents.js';
import { readElements } from '../test-support/outputs.js';
import { type PartitionProxy, startPartitionProxy } from '../test-support/partition-proxy.js';
import { runCli } from '../test-support/run-cli.js';
import { ingest } from './ingest.js';

/** Each test runs real CLI processes; on a busy shared machine one can take tens of seconds. */
const CLI_TIMEOUT = 240_000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** Nothing listens on port 1: connecting there fails at once. */
const UNREACHABLE = 'http://127.0.0.1:1/general/v0/general';

let service: Awaited<ReturnType<typeof startTestService>>;
let endpoint: string;
let proxy: PartitionProxy;
let root: string;
let input: string;
/** Partition requests that the service's admission control refuses as "low on memory" (503). */
let refuseNext = 0;
let counter = 0;

beforeAll(async () => {
  service = await startTestService(
    { rate_limit_per_minute: 0 },
    { freeMemory: () => (refuseNext-- > 0 ? 0 : Number.MAX_SAFE_INTEGER) },
  );
  const base = await service.app.listen({ host: '127.0.0.1', port: 0 });
  endpoint = `${base}/general/v0/general`;
  proxy = await startPartitionProxy(endpoint);
  root = await mkdtemp(join(tmpdir(), 'ingest-api-'));
  input = join(root, 'in');
  await mkdir(input, { recursive: true });
  await writeFile(join(input, 'memo.pdf'), await makePdf(['Quarterly memo', 'The plan is on track.'], 2));
  await writeFile(join(input, 'notes.txt'), 'Meeting notes\n\nThe budget review moved to Friday.\n');
}, 180_000);
afterAll(async () => {
  await proxy?.close();
  await service?.stop();
  await rm(root, { recursive: true, force: true });
});
beforeEach(() => {
  proxy.requests.length = 0;
  proxy.script.length = 0;
  proxy.holdMs = 0;
  proxy.maxInFlight = 0;
});

/** Fresh output and work dirs for one run. */
function dirs() {
  counter++;
  return { output: join(root, `out-${counter}`), work: join(root, `work-${counter}`) };
}

function cliArgs(extra: string[], { output, work } = dirs()): string[] {
  return ['local', '--input-path', input, '--work-dir', work, '--output-dir', output, ...extra];
}

/** ingest() of one file of the fixture through the API. */
function ingestOne(file: string, options: Record<string, unknown>) {
  const { output, work } = dirs();
  return ingest({
    source: { type: 'local', input_path: join(input, file) },
    output_dir: output,
    work_dir: work,
    partition_by_api: true,
    api_key: TEST_KEY,
    ...options,
  }).then((summary) => ({ summary, output }));
}

describe('--partition-by-api against the project server', { timeout: CLI_TIMEOUT }, () => {
  it('sends partition options and --additional-partition-args, and the server applies them', async () => {
    const target = dirs();
    const result = await runCli(
      cliArgs(
        [
          '--partition-by-api',
          ...['--partition-endpoint', proxy.url, '--api-key', TEST_KEY],
          ...['--strategy', 'fast', '--unique-element-ids'],
          ...['--additional-partition-args', '{"split_pdf_page": true, "split_pdf_concurrency_level": 3}'],
        ],
        target,
      ),
    );
    expect(result.code).toBe(0);
    expect(proxy.requests.map((r) => r.filename).sort()).toEqual(['memo.pdf', 'notes.txt']);
    for (const request of proxy.requests) {
      expect(request.apiKey).toBe(TEST_KEY);
      expect(request.fields).toMatchObject({
        strategy: ['fast'],
        unique_element_ids: ['true'],
        split_pdf_page: ['true'],
        split_pdf_concurrency_level: ['3'],
      });
    }
    // The server made the ids (random UUIDs, as asked) and paged the PDF.
    const memo = await readElements(target.output, 'memo.pdf');
    expect(memo.map((e) => e.text)).toContain('The plan is on track.');
    expect(new Set(memo.map((e) => e.metadata.page_number))).toEqual(new Set([1, 2]));
    for (const element of memo) {
      expect(element.element_id).toMatch(UUID);
      // What the server leaves out (its temporary copy's folder and time) comes from the record.
      expect(element.metadata.file_directory).toBe(input);
      expect(element.metadata.last_modified).toBe(element.metadata.data_source?.date_modified);
      expect(element.metadata.filename).toBe('memo.pdf');
    }
  });

  it('retries 503 and 429 with backoff, then succeeds', async () => {
    proxy.script.push({ status: 503 }, { status: 503 }, { status: 429, headers: { 'retry-after': '0' } });
    const { summary, output } = await ingestOne('notes.txt', { partition_endpoint: proxy.url });
    expect(summary).toMatchObject({ succeeded: 1, failed: [] });
    expect(proxy.requests).toHaveLength(4);
    expect((await readElements(output, 'notes.txt')).map((e) => e.text)).toEqual([
      'Meeting notes',
      'The budget review moved to Friday.',
    ]);
  }, 60_000);

  it("waits out the server's own admission control (503 with Retry-After)", async () => {
    refuseNext = 1;
    const { summary } = await ingestOne('notes.txt', { partition_endpoint: endpoint });
    expect(summary).toMatchObject({ succeeded: 1, failed: [] });
    expect(refuseNext).toBeLessThan(0); // the refusal happened, and the retry got through
  }, 60_000);

  it('gives up after api_max_retries and after api_timeout_ms, with the reason', async () => {
    proxy.script.push({ status: 503 }, { status: 503 }, { status: 503 });
    const busy = await ingestOne('notes.txt', { partition_endpoint: proxy.url, api_max_retries: 1 });
    expect(proxy.requests).toHaveLength(2);
    expect(busy.summary.failed).toEqual([
      expect.objectContaining({
        step: 'partition',
        code: 'provider_error',
        message: 'partition endpoint answered 503 (after 2 attempts): scripted 503',
      }),
    ]);

    proxy.requests.length = 0;
    proxy.script.push('hang', 'hang');
    const slow = await ingestOne('notes.txt', {
      partition_endpoint: proxy.url,
      api_max_retries: 1,
      api_timeout_ms: 1_000,
    });
    expect(proxy.requests).toHaveLength(2);
    expect(slow.summary.failed[0]?.message).toBe(
      `partition endpoint ${proxy.url} unreachable (2 attempts): no answer within 1000 ms`,
    );
  }, 60_000);

  it('takes --api-max-retries and --api-timeout-ms from the command line', async () => {
    proxy.script.push('hang', 'hang');
    const result = await runCli(
      cliArgs([
        '--partition-by-api',
        ...['--partition-endpoint', proxy.url, '--api-key', TEST_KEY],
        ...['--api-max-retries', '0', '--api-timeout-ms', '1000'],
      ]),
    );
    expect(result.code).toBe(1);
    expect(proxy.requests).toHaveLength(2); // one attempt per file
    for (const file of ['memo.pdf', 'notes.txt']) {
      expect(result.stderr).toContain(
        `FAILED  ${file}: [partition] provider_error: partition endpoint ${proxy.url} unreachable (1 attempt): no answer within 1000 ms`,
      );
    }
  });

  it('reports a rejected key (401) per record, with a clear reason and without the key', async () => {
    const wrongKey = 'dsk_wrong-key-0000000000000000000000000000000';
    const result = await runCli(
      cliArgs(['--partition-by-api', '--partition-endpoint', proxy.url, '--api-key', wrongKey]),
    );
    expect(result.code).toBe(1);
    expect(proxy.requests).toHaveLength(2); // no retry of a 401
    for (const file of ['memo.pdf', 'notes.txt']) {
      expect(result.stderr).toContain(
        `FAILED  ${file}: [partition] auth: partition endpoint answered 401: API key is invalid, please provide a valid API key in the header.`,
      );
    }
    expect(result.stderr).toMatch(/0 of 2 records processed, 0 unchanged, 2 failed/);
    expect(`${result.stdout}${result.stderr}`).not.toContain(wrongKey);
  });
});

describe('endpoint and key settings', { timeout: CLI_TIMEOUT }, () => {
  it('uses no key and no address without --partition-by-api (SERVICE_API_URL/KEY set or not)', async () => {
    const result = await runCli(cliArgs(['--api-key', 'dsk_not-used']), {
      SERVICE_API_URL: proxy.url,
      SERVICE_API_KEY: TEST_KEY,
    });
    expect(result.code).toBe(0);
    expect(proxy.requests).toEqual([]);
    // An unreachable endpoint, configured but not used, is no failure.
    const { output, work } = dirs();
    const summary = await ingest({
      source: { type: 'local', input_path: input },
      output_dir: output,
      work_dir: work,
      partition_endpoint: UNREACHABLE,
      api_key: 'dsk_not-used',
    });
    expect(summary).toMatchObject({ succeeded: 2, failed: [] });
  });

  it('takes SERVICE_API_URL and SERVICE_API_KEY from the environment when no flag is given', async () => {
    const result = await runCli(cliArgs(['--partition-by-api']), {
      SERVICE_API_URL: proxy.url,
      SERVICE_API_KEY: TEST_KEY,
    });
    expect(result.code).toBe(0);
    expect(proxy.requests).toHaveLength(2);
    for (const request of proxy.requests) expect(request.apiKey).toBe(TEST_KEY);
  });

  it('prefers flags to the environment', async () => {
    const result = await runCli(
      cliArgs(['--partition-by-api', '--partition-endpoint', proxy.url, '--api-key', TEST_KEY]),
      { SERVICE_API_URL: UNREACHABLE, SERVICE_API_KEY: 'dsk_stale-key-from-the-environment' },
    );
    expect(result.code).toBe(0);
    expect(proxy.requests).toHaveLength(2);
    for (const request of proxy.requests) expect(request.apiKey).toBe(TEST_KEY);
  });

  it('names the default address and the variables in --help', async () => {
    const help = await runCli(['local', '--help'], {
      SERVICE_API_URL: undefined,
      SERVICE_API_KEY: undefined,
    });
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(
      /--partition-endpoint <url>[\s\S]*\(default: "http:\/\/127\.0\.0\.1:8000\/general\/v0\/general"\)[\s\S]*SERVICE_API_URL/,
    );
    expect(help.stdout).toMatch(/--api-key <key>[\s\S]*SERVICE_API_KEY/);
    expect(help.stdout).toMatch(/Option values: flag > environment variable > default/);
  });
});

describe('--max-connections', { timeout: CLI_TIMEOUT }, () => {
  it('bounds the requests in flight', async () => {
    await Promise.all(
      ['c.txt', 'd.txt', 'e.txt', 'f.txt'].map((name) =>
        writeFile(join(input, name), `Extra note ${name} for the connection test.\n`),
      ),
    );
    try {
      proxy.holdMs = 400;
      const one = await runCli(
        cliArgs([
          '--partition-by-api',
          '--partition-endpoint',
          proxy.url,
          '--api-key',
          TEST_KEY,
          '--max-connections',
          '1',
        ]),
      );
      expect(one.code).toBe(0);
      expect(proxy.requests).toHaveLength(6);
      expect(proxy.maxInFlight).toBe(1);

      proxy.requests.length = 0;
      proxy.maxInFlight = 0;
      const three = await runCli(
        cliArgs([
          '--partition-by-api',
          '--partition-endpoint',
          proxy.url,
          '--api-key',
          TEST_KEY,
          '--max-connections',
          '3',
        ]),
      );
      expect(three.code).toBe(0);
      expect(proxy.requests).toHaveLength(6);
      expect(proxy.maxInFlight).toBeGreaterThan(1);
      expect(proxy.maxInFlight).toBeLessThanOrEqual(3);
    } finally {
      await Promise.all(['c.txt', 'd.txt', 'e.txt', 'f.txt'].map((name) => rm(join(input, name))));
    }
  });
});
