import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { partition } from '@docsvc/partition';
import autocannon from 'autocannon';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { markdownTable } from '../../scripts/lib/doc-sections.js';
import { type BenchSuite, machineLine, medianMs } from '../lib.js';

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
        const partitionMs = await medianMs(
          () => partition({ data: c.data, filename: c.filename }, { strategy: 'fast' }).catch(() => []),
          20,
        );
        for (const connections of [1, 8, 64]) {
          const r = await load(server.url, form.body, form.contentType, connections, 8);
          const overhead = connections === 1 ? Math.max(0, r.p50 - partitionMs).toFixed(1) : '';
          rows.push([
            c.name,
            connections,
            r.rps.toFixed(0),
            r.p50.toFixed(1),
            r.p99.toFixed(1),
            partitionMs.toFixed(1),
            overhead,
            r.errors,
          ]);
        }
      }
    } finally {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
    return `${machineLine()}; server and load generator (autocannon, 8 s per row) on the same 2-core machine; embedded database.
Overhead = p50 latency at 1 connection − median in-process partition() time of the same file.

${markdownTable(['document', 'connections', 'req/s', 'p50 ms', 'p99 ms', 'partition ms', 'overhead ms', 'errors'], rows)}`;
  },
};
