import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { gzipSync } from 'node:zlib';
import type { Element } from '@docsvc/partition';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipartBody, startTestService, TEST_KEY } from '../test-support/service.js';

type TestService = Awaited<ReturnType<typeof startTestService>>;
let service: TestService;

const REPORT = 'Quarterly Report\n\nRevenue is up and the team is hiring more engineers this year.\n';

beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service.stop();
});

async function post(
  parts: Parameters<typeof multipartBody>[0],
  headers: Record<string, string> = {},
  target: TestService = service,
) {
  const body = multipartBody(parts);
  return target.app.inject({
    method: 'POST',
    url: '/general/v0/general',
    payload: body.payload,
    headers: { ...body.headers, 'service-api-key': TEST_KEY, ...headers },
  });
}

const report = { name: 'files', filename: 'report.txt', data: REPORT, contentType: 'text/plain' };

describe('POST /general/v0/general', () => {
  it('partitions one file into a JSON array of elements', async () => {
    const response = await post([report]);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['server-timing']).toMatch(/^partition;dur=\d+(\.\d+)?$/);
    const elements = response.json() as Element[];
    expect(elements.map((e) => e.type)).toEqual(['Title', 'NarrativeText']);
    expect(elements[0]!.metadata.filename).toBe('report.txt');
    expect(elements[0]!.metadata.filetype).toBe('text/plain');
    expect(elements[0]!.metadata).not.toHaveProperty('file_directory');
    expect(elements[0]!.element_id).toMatch(/^[0-9a-f]{64}$/);
    const again = (await post([report])).json() as Element[];
    expect(again.map((e) => e.element_id)).toEqual(elements.map((e) => e.element_id));
  });

  it('also answers on a versioned path', async () => {
    const body = multipartBody([report]);
    const response = await service.app.inject({
      method: 'POST',
      url: '/general/0.1.0/general',
      payload: body.payload,
      headers: { ...body.headers, 'service-api-key': TEST_KEY },
    });
    expect(response.statusCode).toBe(200);
  });

  it('answers several files with an array of arrays, in order', async () => {
    const response = await post([
      report,
      { name: 'files', filename: 'b.md', data: 'Second file text is here.', contentType: 'text/plain' },
    ]);
    expect(response.statusCode).toBe(200);
    const results = response.json() as Element[][];
    expect(results).toHaveLength(2);
    expect(results[0]![0]!.metadata.filename).toBe('report.txt');
    expect(results[1]![0]!.metadata.filename).toBe('b.md');
  });

  it('refuses an unsupported Accept header with several files (406) but not with one', async () => {
    const two = await post([report, report], { accept: 'text/html' });
    expect(two.statusCode).toBe(406);
    expect(two.json().detail).toMatch(/Conflict in media type text\/html/);
    expect((await post([report], { accept: 'text/html' })).statusCode).toBe(200);
  });

  it('serves CSV as text/csv with one row per element', async () => {
    const response = await post([report, { name: 'output_format', value: 'text/csv' }]);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    const lines = response.body.trim().split('\r\n');
    expect(lines[0]).toMatch(/^type,element_id,text,/);
    expect(lines).toHaveLength(3);
  });

  it('accepts booleans in any case and as 1/0', async () => {
    for (const value of ['TRUE', 'true', '1', 'True']) {
      const response = await post([report, { name: 'unique_element_ids', value }]);
      expect((response.json() as Element[])[0]!.element_id).toMatch(/^[0-9a-f-]{36}$/);
    }
    const off = await post([report, { name: 'unique_element_ids', value: '0' }]);
    expect((off.json() as Element[])[0]!.element_id).toMatch(/^[0-9a-f]{64}$/);
  });

  it('accepts lists as repeated keys, key[], JSON arrays, and comma- or plus-joined strings', async () => {
    const encodings: Parameters<typeof multipartBody>[0][] = [
      [
        { name: 'languages', value: 'eng' },
        { name: 'languages', value: 'fra' },
      ],
      [
        { name: 'languages[]', value: 'eng' },
        { name: 'languages[]', value: 'fra' },
      ],
      [{ name: 'languages', value: '["eng","fra"]' }],
      [{ name: 'languages', value: 'eng,fra' }],
      [{ name: 'languages', value: 'eng+fra' }],
      [{ name: 'ocr_languages', value: 'en+fr' }],
    ];
    for (const parts of encodings) {
      const response = await post([report, ...parts]);
      expect(response.statusCode).toBe(200);
      expect((response.json() as Element[])[0]!.metadata.languages).toEqual(['eng', 'fra']);
    }
  });

  it('chunks with the chunking options, including the legacy combine_under_n_chars name', async () => {
    const text = Array.from(
      { length: 12 },
      (_, i) => `Section ${i}\n\nThis paragraph number ${i} is part of the chunking test document.`,
    ).join('\n\n');
    const response = await post([
      { name: 'files', filename: 'long.txt', data: text, contentType: 'text/plain' },
      { name: 'chunking_strategy', value: 'by_title' },
      { name: 'max_characters', value: '200' },
      { name: 'combine_under_n_chars', value: '0' },
      { name: 'include_orig_elements', value: 'false' },
    ]);
    expect(response.statusCode).toBe(200);
    const chunks = response.json() as Element[];
    expect(new Set(chunks.map((c) => c.type))).toEqual(new Set(['CompositeElement']));
    expect(chunks.every((c) => c.text.length <= 200)).toBe(true);
    expect(chunks[0]!.metadata).not.toHaveProperty('orig_elements');
  });

  it('splits PDFs server-side with split_pdf_page, giving the same elements and ids as unsplit', async () => {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    for (let page = 1; page <= 7; page++) {
      pdf.addPage([612, 792]).drawText(`Body text of page ${page}, long enough to be a sentence here.`, {
        x: 72,
        y: 700,
        size: 12,
        font,
      });
    }
    const file = {
      name: 'files',
      filename: 'seven.pdf',
      data: await pdf.save(),
      contentType: 'application/pdf',
    };
    const whole = await post([file, { name: 'strategy', value: 'fast' }]);
    const split = await post([
      file,
      { name: 'strategy', value: 'fast' },
      { name: 'split_pdf_page', value: 'true' },
      { name: 'split_pdf_concurrency_level', value: '3' },
    ]);
    expect(split.statusCode).toBe(200);
    expect(split.json()).toEqual(whole.json());
    const ranged = await post([
      file,
      { name: 'strategy', value: 'fast' },
      { name: 'split_pdf_page', value: 'true' },
      { name: 'split_pdf_page_range', value: '2,4' },
    ]);
    expect((ranged.json() as Element[]).map((e) => e.metadata.page_number)).toEqual([2, 3, 4]);
  });

  it('ignores unknown form fields', async () => {
    const response = await post([
      report,
      { name: 'split_pdf_unknown_thing', value: 'x' },
      { name: 'tracking_enabled', value: 'true' },
    ]);
    expect(response.statusCode).toBe(200);
  });

  it('offsets page numbers with starting_page_number and honours content_type', async () => {
    const response = await post([
      { name: 'files', filename: 'data.bin', data: REPORT },
      { name: 'content_type', value: 'text/plain' },
    ]);
    expect(response.statusCode).toBe(200);
    expect((response.json() as Element[])[0]!.metadata.filetype).toBe('text/plain');
  });

  it('decompresses gzip uploads', async () => {
    const response = await post([
      { name: 'files', filename: 'report.txt.gz', data: gzipSync(REPORT), contentType: 'application/gzip' },
    ]);
    expect(response.statusCode).toBe(200);
    const elements = response.json() as Element[];
    expect(elements[0]!.text).toBe('Quarterly Report');
    expect(elements[0]!.metadata.filename).toBe('report.txt');
  });

  it('answers 422 with field-level detail for invalid values and a missing files part', async () => {
    const strategy = await post([report, { name: 'strategy', value: 'bogus' }]);
    expect(strategy.statusCode).toBe(422);
    expect(strategy.json().detail[0]).toMatchObject({ loc: ['body', 'strategy'], type: 'value_error' });
    const page = await post([report, { name: 'starting_page_number', value: 'abc' }]);
    expect(page.statusCode).toBe(422);
    expect(page.json().detail[0].loc).toEqual(['body', 'starting_page_number']);
    const noFiles = await post([{ name: 'strategy', value: 'fast' }]);
    expect(noFiles.statusCode).toBe(422);
    expect(noFiles.json().detail[0]).toMatchObject({ loc: ['body', 'files'], type: 'missing' });
  });

  it('answers 400 for an unsupported file type', async () => {
    const wav = Buffer.alloc(44);
    wav.write('RIFF', 0);
    wav.write('WAVEfmt ', 8);
    const response = await post([{ name: 'files', filename: 'sound.wav', data: wav }]);
    expect(response.statusCode).toBe(400);
    expect(response.json().detail).toMatch(/audio\/wav is not supported/);
  });

  it('refuses model paths in hi_res_model_name (no probing of the server file system)', async () => {
    for (const value of ['/etc/passwd', '../model.onnx', 'model.onnx']) {
      const response = await post([report, { name: 'hi_res_model_name', value }]);
      expect(response.statusCode).toBe(400);
      expect(response.json().detail).toMatch(/Unknown model type/);
    }
  });

  it('answers 415 for a request that is not multipart', async () => {
    const response = await service.app.inject({
      method: 'POST',
      url: '/general/v0/general',
      payload: { files: 'x' },
      headers: { 'service-api-key': TEST_KEY },
    });
    expect(response.statusCode).toBe(415);
  });

  it('answers 405 to other methods, with or without a key', async () => {
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const response = await service.app.inject({ method, url: '/general/v0/general' });
      expect(response.statusCode).toBe(405);
      expect(response.json()).toEqual({ detail: 'Only POST requests are supported.' });
    }
  });

  it('removes temporary upload files on success and on error', async () => {
    const large = Buffer.alloc(3 * 1024 * 1024, 'lorem ipsum dolor sit amet. ');
    const before = (await readdir(tmpdir())).filter((name) => name.startsWith('docsvc-upload-')).length;
    expect(
      (await post([{ name: 'files', filename: 'big.txt', data: large, contentType: 'text/plain' }]))
        .statusCode,
    ).toBe(200);
    expect(
      (
        await post([
          { name: 'files', filename: 'big.txt', data: large, contentType: 'text/plain' },
          { name: 'strategy', value: 'x' },
        ])
      ).statusCode,
    ).toBe(422);
    const after = (await readdir(tmpdir())).filter((name) => name.startsWith('docsvc-upload-')).length;
    expect(after).toBe(before);
  });
});

describe('limits and load', () => {
  it('answers 413 above the upload limit', async () => {
    const small = await startTestService({ max_upload_mb: 0.01 });
    try {
      const response = await post(
        [{ name: 'files', filename: 'big.txt', data: Buffer.alloc(50_000, 'a') }],
        {},
        small,
      );
      expect(response.statusCode).toBe(413);
      expect(response.json().detail).toMatch(/size limit/);
    } finally {
      await small.stop();
    }
  });

  it('answers 429 once a key exceeds its rate limit', async () => {
    const limited = await startTestService({ rate_limit_per_minute: 2 });
    try {
      expect((await post([report], {}, limited)).statusCode).toBe(200);
      expect((await post([report], {}, limited)).statusCode).toBe(200);
      const third = await post([report], {}, limited);
      expect(third.statusCode).toBe(429);
      expect(third.headers['retry-after']).toBeDefined();
      expect(third.json().detail).toMatch(/Rate limit/);
    } finally {
      await limited.stop();
    }
  });

  it('answers 503 with Retry-After when memory is short', async () => {
    const starved = await startTestService({}, { freeMemory: () => 0 });
    try {
      const response = await post([report], {}, starved);
      expect(response.statusCode).toBe(503);
      expect(response.headers['retry-after']).toBe('5');
    } finally {
      await starved.stop();
    }
  });

  it('answers 503 when the wait queue is full', async () => {
    const busy = await startTestService({ max_concurrent_requests: 1, max_queued_requests: 0 });
    try {
      const large = Buffer.alloc(4 * 1024 * 1024, 'The quick brown fox jumps over the lazy dog. ');
      const responses = await Promise.all(
        [0, 1, 2].map(() =>
          post([{ name: 'files', filename: 'a.txt', data: large, contentType: 'text/plain' }], {}, busy),
        ),
      );
      const codes = responses.map((r) => r.statusCode).sort();
      expect(codes).toContain(200);
      expect(codes).toContain(503);
    } finally {
      await busy.stop();
    }
  });
});
