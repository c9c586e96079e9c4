import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { Document, HeadingLevel, Packer, Paragraph } from 'docx';
import PDFDocument from 'pdfkit';

/**
 * Small documents of several formats, generated so that each one's content is known and distinct (the
 * element ids, content hashes and cache keys of two documents never collide).
 */
export const FORMATS = ['txt', 'md', 'html', 'csv', 'eml', 'docx', 'pdf'] as const;
export type Format = (typeof FORMATS)[number];

const WORDS =
  'report budget review plan market product customer quality delivery schedule forecast audit'.split(' ');

/** A sentence that depends on `n` (so documents differ) and reads like prose. */
export function sentence(n: number, length = 12): string {
  const words = Array.from({ length }, (_, i) => WORDS[(n * 7 + i * 3 + (n >> 3)) % WORDS.length]!);
  return `Document ${n} says the ${words.join(' ')} is on track.`;
}

/** The bytes of document `n` in `format`. */
export async function makeDocument(format: Format, n: number): Promise<Uint8Array> {
  const title = `Section ${n} overview`;
  const body = [sentence(n), sentence(n + 1000)];
  switch (format) {
    case 'txt':
      return Buffer.from(`${title.toUpperCase()}\n\n${body.join('\n\n')}\n`);
    case 'md':
      return Buffer.from(`# ${title}\n\n${body[0]}\n\n- ${body[1]}\n- item ${n} closes the list\n`);
    case 'html':
      return Buffer.from(
        `<!doctype html><html><body><h1>${title}</h1><p>${body[0]}</p><ul><li>${body[1]}</li></ul></body></html>`,
      );
    case 'csv':
      return Buffer.from(
        `id,name,amount\n${n},${WORDS[n % WORDS.length]},${n * 10}\n${n + 1},total,${n * 20}\n`,
      );
    case 'eml':
      return Buffer.from(
        [
          'From: Alice <alice@example.com>',
          'To: Bob <bob@example.com>',
          `Subject: ${title}`,
          'Date: Mon, 3 Mar 2025 10:00:00 +0000',
          `Message-ID: <doc-${n}@example.com>`,
          'MIME-Version: 1.0',
          'Content-Type: text/plain; charset=utf-8',
          '',
          body.join('\n\n'),
          '',
        ].join('\r\n'),
      );
    case 'docx': {
      const document = new Document({
        sections: [
          {
            children: [
              new Paragraph({ text: title, heading: HeadingLevel.HEADING_1 }),
              ...body.map((text) => new Paragraph({ text })),
            ],
          },
        ],
      });
      return new Uint8Array(await Packer.toBuffer(document));
    }
    case 'pdf':
      return makePdf([title, ...body]);
  }
}

/** A PDF with a text layer: a large first line (a title) and paragraphs; `pages` pages of the same. */
export function makePdf(lines: string[], pages = 1): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const pdf = new PDFDocument({ size: 'A4', margin: 72 });
    const chunks: Buffer[] = [];
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
    pdf.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
    pdf.on('error', reject);
    for (let page = 0; page < pages; page++) {
      if (page > 0) pdf.addPage();
      const [first, ...rest] = lines;
      pdf.fontSize(20).text(first ?? '');
      pdf.moveDown();
      for (const line of rest) {
        pdf.fontSize(11).text(page > 0 ? `${line} (page ${page + 1})` : line);
        pdf.moveDown();
      }
    }
    pdf.end();
  });
}

/**
 * Write `count` documents under `dir`, cycling through `formats`, spread over a few subfolders.
 * Returns their paths relative to `dir`, sorted.
 */
export async function writeDocuments(
  dir: string,
  count: number,
  formats: readonly Format[] = FORMATS,
): Promise<string[]> {
  const paths: string[] = [];
  for (let n = 0; n < count; n++) {
    const format = formats[n % formats.length]!;
    const rel = `${n % 4 === 0 ? '' : `group-${n % 4}/`}doc-${String(n).padStart(4, '0')}.${format}`;
    await mkdir(dirname(join(dir, rel)), { recursive: true });
    await writeFile(join(dir, rel), await makeDocument(format, n));
    paths.push(rel);
  }
  return paths.sort();
}

/** A blank white greyscale PNG (no text): an image input for strategy tests. */
export function makePng(width = 64, height = 64): Uint8Array {
  const chunk = (type: string, data: Buffer): Buffer => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  const rows = Buffer.alloc((width + 1) * height, 255);
  for (let y = 0; y < height; y++) rows[y * (width + 1)] = 0; // filter byte of each row: none
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
