import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type Tesseract from 'tesseract.js';
import type { TextLine } from '../../layout/types.js';
import type { OcrEngine, RgbaImage } from '../types.js';
import { findTraineddata, type TraineddataSource } from './traineddata.js';
import { splitAtGaps } from './words.js';

/**
 * tesseract.js (Tesseract 5 LSTM compiled to WebAssembly) with traineddata from the
 * @tesseract.js-data/<lang> npm packages or the user's DOCSVC_TESSDATA_DIR (traineddata.ts). `langPath`
 * always points at a local folder and the cache is off, so tesseract.js never fetches from its CDN nor
 * writes traineddata into the working directory.
 * One worker per language set is kept per thread and reused across pages; `close` terminates them.
 */

const OEM_LSTM_ONLY = 1;
/** Row height → font size: Tesseract's row height (ascender to descender) is about one em (measured). */
const FONT_SIZE_PER_LINE_HEIGHT = 1.0;
/**
 * A tesseract.js worker is a worker thread that keeps Node's event loop alive, so an idle engine
 * terminates its workers after this long; the next page starts one again (a few hundred ms).
 */
const IDLE_CLOSE_MS = 2_000;

interface LoadedWorker {
  worker: Tesseract.Worker;
  /** A temporary folder of links when several languages (from several packages) share one worker. */
  linkFolder: string | undefined;
}

export class TesseractEngine implements OcrEngine {
  readonly name = 'tesseract';
  private readonly workers = new Map<string, Promise<LoadedWorker>>();
  private busy = 0;
  private idleTimer: NodeJS.Timeout | undefined;

  private worker(languages: readonly string[]): Promise<LoadedWorker> {
    const key = languages.join('+');
    let loaded = this.workers.get(key);
    if (!loaded) {
      loaded = startWorker(languages);
      this.workers.set(key, loaded);
      // A failed start must not poison the cache: the next call tries again.
      loaded.catch(() => this.workers.delete(key));
    }
    return loaded;
  }

  async recognize(image: RgbaImage, languages: readonly string[]): Promise<TextLine[]> {
    clearTimeout(this.idleTimer);
    this.busy++;
    try {
      const { worker } = await this.worker(languages);
      const result = await worker.recognize(Buffer.from(toPgm(image)), {}, { blocks: true, text: false });
      return linesFromBlocks(result.data.blocks ?? []);
    } finally {
      this.busy--;
      if (this.busy === 0) {
        this.idleTimer = setTimeout(() => void this.close(), IDLE_CLOSE_MS);
        this.idleTimer.unref();
      }
    }
  }

  async close(): Promise<void> {
    clearTimeout(this.idleTimer);
    const workers = [...this.workers.values()];
    this.workers.clear();
    await Promise.all(
      workers.map(async (pending) => {
        const { worker, linkFolder } = await pending.catch(() => ({
          worker: undefined,
          linkFolder: undefined,
        }));
        await worker?.terminate();
        if (linkFolder) await rm(linkFolder, { recursive: true, force: true });
      }),
    );
  }
}

/** Tesseract's lines, cut into word groups at wide gaps, as TextLines in pixel coordinates. */
function linesFromBlocks(blocks: readonly Tesseract.Block[]): TextLine[] {
  const lines: TextLine[] = [];
  for (const block of blocks) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        const words = line.words.filter((word) => word.text.trim() !== '');
        for (const group of splitAtGaps(words)) {
          const text = group.map((word) => word.text).join(' ');
          const x0 = Math.min(...group.map((word) => word.bbox.x0));
          const x1 = Math.max(...group.map((word) => word.bbox.x1));
          const y0 = Math.min(...group.map((word) => word.bbox.y0));
          const y1 = Math.max(...group.map((word) => word.bbox.y1));
          const confidence = group.reduce((sum, word) => sum + word.confidence, 0) / group.length / 100;
          const height = line.rowAttributes?.rowHeight || y1 - y0;
          lines.push({
            x0,
            y0,
            x1,
            y1,
            text,
            confidence,
            fontSize: height * FONT_SIZE_PER_LINE_HEIGHT,
            origin: 'ocr',
          });
        }
      }
    }
  }
  return lines.sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
}

async function startWorker(languages: readonly string[]): Promise<LoadedWorker> {
  const { createWorker } = await import('tesseract.js');
  const sources = languages.map((code) => {
    const found = findTraineddata(code);
    if (!found) throw new Error(`no traineddata for OCR language ${code}`); // resolveOcrLanguages checked it
    return found;
  });
  const { langPath, gzip: compressed, linkFolder } = await languageFolder(sources);
  const worker = await createWorker([...languages], OEM_LSTM_ONLY, {
    langPath,
    gzip: compressed,
    cacheMethod: 'none',
    logger: () => {},
    errorHandler: () => {},
  });
  return { worker, linkFolder };
}

/**
 * tesseract.js reads every language of a worker from one folder, all compressed or all not. Models from
 * one folder in one form are used where they lie; otherwise a temporary folder gets links to the
 * compressed ones and compressed copies of the others (fast level: written once per worker start).
 */
async function languageFolder(
  sources: readonly TraineddataSource[],
): Promise<{ langPath: string; gzip: boolean; linkFolder: string | undefined }> {
  const first = sources[0]!;
  if (sources.every((model) => model.folder === first.folder && model.gzip === first.gzip)) {
    return { langPath: first.folder, gzip: first.gzip, linkFolder: undefined };
  }
  const linkFolder = await mkdtemp(join(tmpdir(), 'docsvc-tessdata-'));
  try {
    for (const model of sources) {
      const target = join(linkFolder, `${model.code}.traineddata.gz`);
      if (model.gzip) await symlink(join(model.folder, `${model.code}.traineddata.gz`), target);
      else {
        const raw = await readFile(join(model.folder, `${model.code}.traineddata`));
        await writeFile(target, await promisify(gzip)(raw, { level: 1 }));
      }
    }
  } catch (error) {
    await rm(linkFolder, { recursive: true, force: true });
    throw error;
  }
  return { langPath: linkFolder, gzip: true, linkFolder };
}

/** Greyscale PGM: the cheapest format Leptonica decodes (no compression), built without a codec. */
export function toPgm(image: RgbaImage): Uint8Array {
  const header = new TextEncoder().encode(`P5\n${image.width} ${image.height}\n255\n`);
  const pixels = image.width * image.height;
  const out = new Uint8Array(header.length + pixels);
  out.set(header);
  const { data } = image;
  for (let i = 0; i < pixels; i++) {
    // Rec. 601 luma, with transparent pixels shown on white.
    const alpha = data[i * 4 + 3]! / 255;
    const luma = 0.299 * data[i * 4]! + 0.587 * data[i * 4 + 1]! + 0.114 * data[i * 4 + 2]!;
    out[header.length + i] = Math.round(luma * alpha + 255 * (1 - alpha));
  }
  return out;
}
