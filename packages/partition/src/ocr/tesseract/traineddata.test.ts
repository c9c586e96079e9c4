import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeOcrEngines, getOcrEngine } from '../engines.js';
import { resolveOcrLanguages, supportedOcrLanguages } from '../languages.js';
import { drawPage, paragraphLines } from '../test-support/text-image.js';
import { TESSDATA_DIR_ENV } from './traineddata.js';

/**
 * A user's tessdata folder. No second language model ships with the project, so the folder holds the
 * English model under the code "deu" (uncompressed, as tessdata repositories publish models): it tests
 * finding, naming, loading and mixing folder models, not German reading.
 */
let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'docsvc-tessdata-test-'));
  const require = createRequire(import.meta.url);
  const english = join(
    dirname(require.resolve('@tesseract.js-data/eng/package.json')),
    '4.0.0_best_int/eng.traineddata.gz',
  );
  await writeFile(join(folder, 'deu.traineddata'), gunzipSync(await readFile(english)));
  await writeFile(join(folder, 'README.txt'), 'not a model');
  await writeFile(join(folder, 'osd.traineddata'), 'orientation model, not a language');
  process.env[TESSDATA_DIR_ENV] = folder;
});

afterAll(async () => {
  delete process.env[TESSDATA_DIR_ENV];
  await closeOcrEngines();
  await rm(folder, { recursive: true, force: true });
});

const LINES = ['Invoice 2024-0117 for Northwind Traders', 'Thank you for your business.'];

describe('tesseract models from DOCSVC_TESSDATA_DIR', { timeout: 120_000 }, () => {
  it('offers the languages of the folder beside the packaged ones', () => {
    expect(supportedOcrLanguages('tesseract').map((language) => `${language.code} ${language.name}`)).toEqual(
      ['eng English', 'fra French', 'deu German'],
    );
    expect(resolveOcrLanguages('tesseract', ['de', 'en'])).toEqual(['deu', 'eng']);
  });

  it('reads a page with a folder model alone and mixed with a packaged one', async () => {
    const image = await drawPage({
      width: 900,
      height: 150,
      blocks: paragraphLines(LINES, { x: 30, y: 50, fontSize: 30 }),
    });
    const engine = await getOcrEngine('tesseract');
    for (const languages of [['deu'], ['eng', 'deu']]) {
      const lines = await engine.recognize(image, resolveOcrLanguages('tesseract', languages));
      expect(lines.map((line) => line.text)).toEqual(LINES);
    }
  });

  it('says how to add a language when one is missing', () => {
    expect(() => resolveOcrLanguages('tesseract', ['spa'])).toThrowError(
      /"spa" is not available with ocr_agent tesseract; supported: eng \(English\), fra \(French\), deu \(German\); add others by putting <code>\.traineddata files in the folder named by DOCSVC_TESSDATA_DIR/,
    );
  });
});
