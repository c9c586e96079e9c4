import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { closeOcrEngines } from '../../ocr/engines.js';
import { encodeBmp } from '../../ocr/test-support/bmp.js';
import { drawPage, drawPageFile, type PageDrawing, pageSvg } from '../../ocr/test-support/text-image.js';
import { partition } from '../../pipeline/partition.js';
import { openImage } from './decode.js';

afterAll(closeOcrEngines);

const page = (text: string): PageDrawing => ({
  width: 640,
  height: 140,
  blocks: [{ text, x: 30, y: 80, fontSize: 34 }],
});
const HELLO = page('Quarterly sales grew strongly');

const texts = (elements: { type: string; text: string }[]) =>
  elements
    .filter((element) => element.type !== 'PageBreak')
    .map((element) => element.text)
    .join(' ');

describe('image partitioning', () => {
  it.each(['png', 'jpeg', 'webp', 'gif'] as const)('reads text from %s', async (format) => {
    const data = await drawPageFile(HELLO, format);
    const elements = await partition({ data, filename: `sales.${format}` }, { coordinates: true });
    expect(texts(elements)).toBe('Quarterly sales grew strongly');
    const [element] = elements;
    expect(element!.metadata).toMatchObject({
      page_number: 1,
      is_extracted: false,
      detection_origin: 'ppocr',
      coordinates: { system: 'PixelSpace', layout_width: 640, layout_height: 140 },
    });
  });

  it('reads a BMP', async () => {
    const data = encodeBmp(await drawPage(HELLO));
    const elements = await partition(
      { data, filename: 'sales.bmp' },
      { strategy: 'ocr_only', ocr_agent: 'tesseract' },
    );
    expect(texts(elements)).toBe('Quarterly sales grew strongly');
  });

  it('reads every page of a multi-page TIFF as its own page', async () => {
    const pages = await Promise.all(
      [page('First page heading'), page('Second page heading')].map((drawing) =>
        sharp(Buffer.from(pageSvg(drawing)))
          .png()
          .toBuffer(),
      ),
    );
    const data = new Uint8Array(
      await sharp(pages, { join: { animated: true } })
        .tiff()
        .toBuffer(),
    );
    const elements = await partition({ data, filename: 'scan.tiff' }, { include_page_breaks: true });
    expect(
      elements.map((e) => [e.type === 'PageBreak' ? 'PageBreak' : 'text', e.text, e.metadata.page_number]),
    ).toEqual([
      ['text', 'First page heading', 1],
      ['PageBreak', '', 1],
      ['text', 'Second page heading', 2],
      ['PageBreak', '', 2],
    ]);
  });

  it('applies the EXIF orientation before reading', async () => {
    const stored = await sharp(Buffer.from(pageSvg(HELLO)))
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const image = await openImage(new Uint8Array(stored), 1e8);
    const decoded = await image.page(0);
    expect([decoded.width, decoded.height]).toEqual([140, 640]);
  });

  it('decodes HEIF coded with AV1', async () => {
    const data = await drawPageFile(HELLO, 'heif');
    const image = await openImage(data, 1e8);
    expect((await image.page(0)).width).toBe(640);
  });

  it('refuses images above the pixel cap, before decoding', async () => {
    const data = await drawPageFile(HELLO, 'png');
    await expect(
      partition({ data, filename: 'big.png' }, {}, { limits: { maxImagePixels: 640 * 139 } }),
    ).rejects.toMatchObject({
      code: 'limit_exceeded',
    });
  });

  it('refuses the fast strategy, unsupported OCR languages and unknown layout models', async () => {
    const data = await drawPageFile(HELLO, 'png');
    await expect(partition({ data, filename: 'a.png' }, { strategy: 'fast' })).rejects.toMatchObject({
      code: 'strategy_not_available',
      message: 'The fast strategy is not available for image files',
    });
    await expect(
      partition({ data, filename: 'a.png' }, { languages: ['deu'], ocr_agent: 'tesseract' }),
    ).rejects.toMatchObject({
      code: 'invalid_option',
      message: expect.stringContaining('supported: eng (English), fra (French)'),
    });
    await expect(
      partition({ data, filename: 'a.png' }, { hi_res_model_name: 'no-such-model' }),
    ).rejects.toMatchObject({
      code: 'unknown_model',
      message: 'Unknown model type: no-such-model',
    });
  });

  it('reports a damaged image as corrupt', async () => {
    const data = (await drawPageFile(HELLO, 'png')).slice(0, 200);
    await expect(partition({ data, filename: 'broken.png' })).rejects.toMatchObject({
      code: 'corrupt_document',
    });
  });
});

const SAMPLES = join(import.meta.dirname, '../../../../../../shared/samples/unstructured-example-docs/img');

describe.skipIf(!existsSync(join(SAMPLES, 'bmp_24.bmp')))('BMP sample', () => {
  it('decodes a 24-bit BMP from the corpus', async () => {
    const image = await openImage(readFileSync(join(SAMPLES, 'bmp_24.bmp')), 1e8);
    const decoded = await image.page(0);
    expect([decoded.width, decoded.height]).toEqual([200, 200]);
  });
});

const SAMPLE_HEIC = join(
  import.meta.dirname,
  '../../../../../../shared/samples/unstructured-example-docs/img/DA-1p.heic',
);

describe.skipIf(!existsSync(SAMPLE_HEIC))('HEIC sample', () => {
  it('explains that HEVC-coded HEIC cannot be decoded', async () => {
    await expect(
      partition({ data: readFileSync(SAMPLE_HEIC), filename: 'DA-1p.heic' }),
    ).rejects.toMatchObject({
      code: 'unsupported_file_type',
      message: expect.stringContaining('HEVC'),
    });
  });
});
