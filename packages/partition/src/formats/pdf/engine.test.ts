import { degrees, PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { hasPdfHeader, openPdf } from './engine.js';
import { makePdf } from './test-support/make-pdf.js';

async function redSquarePng(size = 64): Promise<Uint8Array> {
  return new Uint8Array(
    await sharp({ create: { width: size, height: size, channels: 3, background: '#ff0000' } })
      .png()
      .toBuffer(),
  );
}

describe('openPdf / readPage', () => {
  it('reads text lines in points with a top-left origin, with font size and weight', async () => {
    const data = await makePdf([
      {
        blocks: [
          { kind: 'heading', text: 'Annual Report', size: 24 },
          { kind: 'paragraph', text: 'The first paragraph of the report.' },
        ],
      },
    ]);
    const document = await openPdf(data);
    try {
      expect(document.pageCount).toBe(1);
      const page = document.readPage(0);
      expect(page.width).toBeCloseTo(612);
      expect(page.height).toBeCloseTo(792);
      expect(page.system).toBe('PointSpace');
      const [heading, paragraph] = page.lines;
      expect(heading?.text).toBe('Annual Report');
      expect(heading?.bold).toBe(true);
      expect(heading?.fontSize).toBeCloseTo(24, 0);
      // pdfkit draws at y = 72 from the top: the line box starts there, not 720 up from the bottom.
      expect(heading!.y0).toBeGreaterThan(60);
      expect(heading!.y0).toBeLessThan(90);
      expect(paragraph?.text).toBe('The first paragraph of the report.');
      expect(paragraph?.bold).toBe(false);
      expect(paragraph!.y0).toBeGreaterThan(heading!.y1);
      expect(page.stats.chars).toBeGreaterThan(30);
    } finally {
      document.close();
    }
  });

  it('finds ruling lines of a drawn table and image regions, with PNG bytes on request', async () => {
    const png = await redSquarePng();
    const data = await makePdf([
      {
        blocks: [
          {
            kind: 'table',
            ruled: true,
            rows: [
              ['a', 'b'],
              ['c', 'd'],
            ],
            columnWidths: [100, 100],
            x: 72,
            y: 100,
          },
          { kind: 'image', png, x: 300, y: 300, width: 120, height: 90 },
        ],
      },
    ]);
    const document = await openPdf(data);
    try {
      const plain = document.readPage(0);
      const horizontal = plain.rules!.filter((r) => r.x1 - r.x0 > 150);
      const vertical = plain.rules!.filter((r) => r.y1 - r.y0 > 30);
      expect(horizontal.length).toBe(3);
      expect(vertical.length).toBe(3);
      expect(plain.images).toHaveLength(1);
      const image = plain.images![0]!;
      expect(image.x0).toBeCloseTo(300, 0);
      expect(image.y0).toBeCloseTo(300, 0);
      expect(image.x1).toBeCloseTo(420, 0);
      expect(image.data).toBeUndefined();
      const withData = document.readPage(0, { imageData: true }).images![0]!;
      expect(withData.mimeType).toBe('image/png');
      const decoded = await sharp(withData.data!).raw().toBuffer({ resolveWithObject: true });
      // The image as placed on the page (its mask and colour space applied).
      expect(decoded.info.width).toBeGreaterThanOrEqual(64);
      expect([decoded.data[0], decoded.data[1], decoded.data[2]]).toEqual([255, 0, 0]);
    } finally {
      document.close();
    }
  });

  it('renders a page to RGBA at the requested DPI, aligned with the point coordinates', async () => {
    const png = await redSquarePng(8);
    const data = await makePdf([{ blocks: [{ kind: 'image', png, x: 72, y: 144, width: 72, height: 72 }] }]);
    const document = await openPdf(data);
    try {
      const raster = document.renderPage(0, 100);
      expect(raster.width).toBe(Math.round((612 * 100) / 72));
      expect(raster.height).toBe(Math.round((792 * 100) / 72));
      expect(raster.data.length).toBe(raster.width * raster.height * 4);
      const pixel = (x: number, y: number) => {
        const offset = (Math.round((y * 100) / 72) * raster.width + Math.round((x * 100) / 72)) * 4;
        return [...raster.data.subarray(offset, offset + 4)];
      };
      expect(pixel(108, 180)).toEqual([255, 0, 0, 255]); // inside the red square
      expect(pixel(300, 500)).toEqual([255, 255, 255, 255]); // white page
      expect(() => document.renderPage(0, 100, { maxPixels: 1000 })).toThrow(/limit/);
    } finally {
      document.close();
    }
  });

  it('applies page rotation: boxes and rendering use the page as displayed', async () => {
    const source = await PDFDocument.load(
      await makePdf([{ blocks: [{ kind: 'text', text: 'Top left corner', x: 72, y: 72 }] }]),
    );
    source.getPage(0).setRotation(degrees(90));
    const document = await openPdf(await source.save());
    try {
      const page = document.readPage(0);
      expect(page.width).toBeCloseTo(792);
      expect(page.height).toBeCloseTo(612);
      const line = page.lines[0]!;
      // Turned a quarter clockwise, the top-left corner of the unrotated page is now at the top right.
      expect(line.x0).toBeGreaterThan(600);
      expect(line.y0).toBeGreaterThan(60);
      expect(line.vertical).toBe(true);
      expect(line.text).toBe('Top left corner');
      const raster = document.renderPage(0, 36);
      expect(raster.width).toBe(396);
      expect(raster.height).toBe(306);
    } finally {
      document.close();
    }
  });

  it('frees what it allocates: reading the same page many times does not grow memory', async () => {
    const data = await makePdf([{ blocks: [{ kind: 'paragraph', text: 'Memory test. '.repeat(200) }] }]);
    const document = await openPdf(data);
    try {
      for (let i = 0; i < 20; i++) document.readPage(0);
      const before = process.memoryUsage().arrayBuffers;
      for (let i = 0; i < 200; i++) document.readPage(0);
      document.renderPage(0, 72);
      expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(8 * 1024 * 1024);
    } finally {
      document.close();
    }
  });
});

describe('bad input', () => {
  it('refuses bytes that are not a PDF', async () => {
    const html = new TextEncoder().encode('<!doctype html><html><body>Not a PDF</body></html>');
    expect(hasPdfHeader(html)).toBe(false);
    await expect(openPdf(html)).rejects.toMatchObject({ code: 'corrupt_document', message: /valid PDF/ });
  });

  it('reports a password-protected PDF as encrypted_document', async () => {
    const data = await makePdf([{ blocks: [{ kind: 'paragraph', text: 'Secret' }] }], {
      userPassword: 'open-sesame',
      ownerPassword: 'owner',
    });
    await expect(openPdf(data)).rejects.toMatchObject({ code: 'encrypted_document' });
    const document = await openPdf(data, { password: 'open-sesame' });
    expect(document.readPage(0).lines[0]?.text).toBe('Secret');
    document.close();
  });

  it('opens a copy-protected PDF (owner password only) normally', async () => {
    const data = await makePdf([{ blocks: [{ kind: 'paragraph', text: 'Protected but readable' }] }], {
      ownerPassword: 'owner-only',
    });
    const document = await openPdf(data);
    expect(document.readPage(0).lines[0]?.text).toBe('Protected but readable');
    document.close();
  });

  it('reads what it can of a PDF whose cross-reference table is wrong', async () => {
    const data = await makePdf([{ blocks: [{ kind: 'paragraph', text: 'Still here' }] }]);
    const text = Buffer.from(data).toString('latin1');
    const broken = text
      .replace(/startxref\s+\d+/, 'startxref\n9999999')
      .replace(/\n\d{10} 00000 n/g, '\n0000000001 00000 n');
    const document = await openPdf(new Uint8Array(Buffer.from(broken, 'latin1')));
    expect(document.readPage(0).lines[0]?.text).toBe('Still here');
    document.close();
  });

  it('gives a typed error, not a crash, for truncated files and a bare header', async () => {
    const data = await makePdf([{ blocks: [{ kind: 'paragraph', text: 'Cut short' }] }], { compress: true });
    for (const cut of [
      Buffer.from('%PDF-1.7\n'),
      data.subarray(0, 200),
      data.subarray(0, Math.floor(data.length / 2)),
    ]) {
      try {
        const document = await openPdf(new Uint8Array(cut));
        // PDFium may rebuild a truncated file; whatever it finds must be readable without throwing.
        for (let i = 0; i < document.pageCount; i++) document.readPage(i);
        document.close();
      } catch (error) {
        expect(error).toMatchObject({ code: 'corrupt_document' });
      }
    }
  });

  it('opens a PDF with no pages', async () => {
    const empty = await PDFDocument.create();
    const document = await openPdf(await empty.save({ addDefaultPage: false }));
    expect(document.pageCount).toBe(0);
    expect(() => document.readPage(0)).toThrow(/outside/);
    document.close();
  });
});
