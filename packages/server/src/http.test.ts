import { PDFDocument, StandardFonts } from 'pdf-lib';
import { UnstructuredClient } from 'unstructured-client';
import { HTTPClient } from 'unstructured-client/lib/http';
import { Strategy } from 'unstructured-client/sdk/models/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_HEADER } from './http/auth.js';
import { startTestService, TEST_KEY } from './test-support/service.js';

/** Real HTTP: the server listens on a loopback port and real clients call it. */
let service: Awaited<ReturnType<typeof startTestService>>;
let baseUrl: string;

beforeAll(async () => {
  service = await startTestService();
  baseUrl = await service.app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await service.stop();
});

function form(text: string, fields: Record<string, string> = {}): FormData {
  const body = new FormData();
  body.append('files', new Blob([text], { type: 'text/plain' }), 'note.txt');
  for (const [key, value] of Object.entries(fields)) body.append(key, value);
  return body;
}

describe('over real HTTP', () => {
  it('partitions with fetch and answers every error status with a JSON detail', async () => {
    const ok = await fetch(`${baseUrl}/general/v0/general`, {
      method: 'POST',
      body: form('Meeting Notes\n\nThe release is planned for Friday and everyone is ready.'),
      headers: { [API_KEY_HEADER]: TEST_KEY },
    });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { type: string }[]).map((e) => e.type)).toEqual(['Title', 'NarrativeText']);

    const unauthorised = await fetch(`${baseUrl}/general/v0/general`, { method: 'POST', body: form('x') });
    expect(unauthorised.status).toBe(401);
    expect(await unauthorised.json()).toEqual({
      detail: 'API key is missing, please provide an API key in the header.',
    });

    const invalid = await fetch(`${baseUrl}/general/v0/general`, {
      method: 'POST',
      body: form('x', { max_characters: 'lots', strategy: 'nope' }),
      headers: { [API_KEY_HEADER]: TEST_KEY },
    });
    expect(invalid.status).toBe(422);

    const get = await fetch(`${baseUrl}/general/v0/general`);
    expect(get.status).toBe(405);
  });

  it('finishes in-flight requests during a graceful shutdown', async () => {
    let admitted!: () => void;
    const handling = new Promise<void>((resolve) => {
      admitted = resolve;
    });
    // The memory probe runs when the handler admits the request: a reliable "now processing" signal.
    const own = await startTestService(
      {},
      {
        freeMemory: () => {
          admitted();
          return Number.MAX_SAFE_INTEGER;
        },
      },
    );
    const url = await own.app.listen({ host: '127.0.0.1', port: 0 });
    const big = 'The quick brown fox jumps over the lazy dog.\n\n'.repeat(5_000);
    const inFlight = fetch(`${url}/general/v0/general`, {
      method: 'POST',
      body: form(big),
      headers: { [API_KEY_HEADER]: TEST_KEY },
    });
    await handling;
    const closing = own.stop();
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(((await response.json()) as unknown[]).length).toBeGreaterThan(0);
    await closing;
  });
});

describe('the official legacy-endpoint client SDK (unstructured-client)', () => {
  const client = () => {
    const httpClient = new HTTPClient();
    httpClient.addHook('beforeRequest', (request) => {
      const next = new Request(request);
      next.headers.set(API_KEY_HEADER, TEST_KEY);
      return next;
    });
    return new UnstructuredClient({ serverURL: baseUrl, httpClient, retryConfig: { strategy: 'none' } });
  };

  it('partitions a text file', async () => {
    const result = await client().general.partition({
      partitionParameters: {
        files: {
          content: new TextEncoder().encode(
            'Status Update\n\nThe migration is complete and all services are running.',
          ),
          fileName: 'status.txt',
        },
        strategy: Strategy.Fast,
        languages: ['eng', 'fra'],
        splitPdfPage: false,
      },
    });
    const elements = result as { type: string; metadata: { languages: string[]; filename: string } }[];
    expect(elements.map((e) => e.type)).toEqual(['Title', 'NarrativeText']);
    expect(elements[0]!.metadata.languages).toEqual(['eng', 'fra']);
    expect(elements[0]!.metadata.filename).toBe('status.txt');
  });

  it('splits a PDF on the client side and gets page numbers as if unsplit', async () => {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    for (let page = 1; page <= 6; page++) {
      pdf.addPage([612, 792]).drawText(`This is the body text of page number ${page} in the document.`, {
        x: 72,
        y: 700,
        size: 12,
        font,
      });
    }
    const result = await client().general.partition({
      partitionParameters: {
        files: { content: await pdf.save(), fileName: 'six-pages.pdf' },
        strategy: Strategy.Fast,
        splitPdfPage: true,
        splitPdfConcurrencyLevel: 3,
      },
    });
    const elements = result as { text: string; metadata: { page_number: number } }[];
    const pages = elements.map((e) => e.metadata.page_number);
    expect(pages).toEqual([1, 2, 3, 4, 5, 6]);
    expect(elements[5]!.text).toContain('page number 6');
  });
});
