import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { markdownTable } from '../../scripts/lib/doc-sections.js';
import { type BenchSuite, machineLine } from '../lib.js';

const KEY = 'dsk_bench-key-0123456789abcdefghijklmnopqrstuv';
const ROOT = join(import.meta.dirname, '../..');

/** A 2 KB plain-text document. */
function smallText(): Uint8Array {
  const paragraph = 'The service turns documents into structured elements for search and retrieval. ';
  let text = 'Benchmark Document\n\n';
  while (text.length < 2048) text += `${paragraph}\n\n`;
  return new TextEncoder().encode(text.slice(0, 2048));
}

async function tenPagePdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let page = 1; page <= 10; page++) {
    const p = pdf.addPage([612, 792]);
    p.drawText(`Section ${page}`, { x: 72, y: 720, size: 18, font });
    for (let line = 0; line < 30; line++) {
      p.drawText(`Line ${line} of page ${page}: the quick brown fox jumps over the lazy dog.`, {
        x: 72,
        y: 690 - line * 20,
        size: 11,
        font,
      });
    }
  }
  return pdf.save();
}

function multipart(filename: string, contentType: string, data: Uint8Array, fields: Record<string, string>) {
  const boundary = '----docsvcbench';
  const parts = [
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`,
    ),
    Buffer.from(data),
    Buffer.from('\r\n'),
    ...Object.entries(fields).map(([k, v]) =>
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
    ),
    Buffer.from(`--${boundary}--\r\n`),
  ];
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

async function startServer(dataDir: string): Promise<{ url: string; stop(): Promise<void> }> {
  const child = spawn(
    process.execPath,
    [join(ROOT, 'packages/server/dist/cli/main.js'), 'start', '--port', '0'],
    {
      env: {
        ...process.env,
        SERVICE_DATA_DIR: dataDir,
        SERVICE_API_KEY: KEY,
        SERVICE_RATE_LIMIT_PER_MINUTE: '0',
        SERVICE_LOG_LEVEL: 'warn',
        SERVICE_MAX_QUEUED_REQUESTS: '1000',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (\S+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/**
 * Server overhead per request: sequential requests, each one's total time minus the partition time the
 * server reports in its Server-Timing header (median). Queueing is excluded: one request at a time.
 */
async function overheadMs(
  url: string,
  body: Buffer,
  contentType: string,
  requests = 200,
): Promise<{ partition: number; overhead: number }> {
  const overheads: number[] = [];
  const partitions: number[] = [];
  for (let i = 0; i < requests; i++) {
    const start = performance.now();
    const response = await fetch(`${url}/general/v0/general`, {
      method: 'POST',
      body,
      headers: { 'content-type': contentType, 'service-api-key': KEY },
    });
    await response.arrayBuffer();
    const total = performance.now() - start;
    const partitionMs = Number(
      /dur=([\d.]+)/.exec(response.headers.get('server-timing') ?? '')?.[1] ?? Number.NaN,
    );
    overheads.push(total - partitionMs);
    partitions.push(partitionMs);
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return { partition: median(partitions), overhead: median(overheads) };
}

async function load(url: string, body: Buffer, contentType: string, connections: number, seconds: number) {
  const result = await autocannon({
    url: `${url}/general/v0/general`,
    method: 'POST',
    headers: { 'content-type': contentType, 'service-api-key': KEY },
    body,
    connections,
    duration: seconds,
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

export const suite: BenchSuite = {
  name: 'bench-server',
  title: 'HTTP API: requests per second and latency',
  async run() {
    const dataDir = await mkdtemp(join(tmpdir(), 'docsvc-bench-server-'));
    const server = await startServer(dataDir);
    const rows: (string | number)[][] = [];
    try {
      const cases = [
        { name: '2 KB text', filename: 'small.txt', type: 'text/plain', data: smallText() },
        {
          name: '10-page PDF (fast)',
          filename: 'ten.pdf',
          type: 'application/pdf',
          data: await tenPagePdf(),
        },
      ];
      for (const c of cases) {
        const form = multipart(c.filename, c.type, c.data, { strategy: 'fast' });
        const sequential = await overheadMs(server.url, form.body, form.contentType);
        for (const connections of [1, 8, 64]) {
          const r = await load(server.url, form.body, form.contentType, connections, 8);
          const first = connections === 1;
          rows.push([
            c.name,
            connections,
            r.rps.toFixed(0),
            r.p50.toFixed(1),
            r.p99.toFixed(1),
            first ? sequential.partition.toFixed(2) : '',
            first ? sequential.overhead.toFixed(2) : '',
            r.errors,
          ]);
        }
      }
    } finally {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
    return `${machineLine()}; server and load generator (autocannon, 8 s per row) on the same 2-core machine; embedded database.
Partition ms and overhead ms: medians over 200 sequential requests; overhead = the client's total time − the
partition time the server reports in its Server-Timing header (HTTP, multipart parsing, auth, JSON).

${markdownTable(['document', 'connections', 'req/s', 'p50 ms', 'p99 ms', 'server partition ms', 'overhead ms', 'errors'], rows)}`;
  },
};
