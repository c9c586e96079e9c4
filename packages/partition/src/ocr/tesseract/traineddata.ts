import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { iso6393 } from 'iso-639-3';
import { toIso6393 } from '../../text/languages.js';

/**
 * Where Tesseract's model for a language comes from: the @tesseract.js-data/<code> npm packages we
 * depend on (English, French), or a folder the user gives in DOCSVC_TESSDATA_DIR holding any
 * `<code>.traineddata` (as tessdata_best / tessdata_fast publish them) or `<code>.traineddata.gz`
 * files. Nothing is downloaded; a model in the folder wins over the packaged one of the same code.
 */
export const TESSDATA_DIR_ENV = 'DOCSVC_TESSDATA_DIR';

export interface TraineddataSource {
  /** Tesseract's language code (the file's base name), e.g. "deu", "chi_tra". */
  code: string;
  /** ISO 639-3 code for metadata.languages and for matching what users ask for. */
  iso: string;
  name: string;
  folder: string;
  /** The file is `<code>.traineddata.gz` (else `<code>.traineddata`). */
  gzip: boolean;
}

const require = createRequire(import.meta.url);
/** tessdata_best converted to integers: the most accurate LSTM models, and LSTM-only (smaller, faster). */
const PACKAGE_MODEL_FOLDER = '4.0.0_best_int';
const PACKAGED_CODES = ['eng', 'fra'];
const FILE = /^([a-z][a-z0-9_]*)\.traineddata(\.gz)?$/i;

const NAMES = new Map(iso6393.map((language) => [language.iso6393, language.name]));

function source(code: string, folder: string, gzip: boolean): TraineddataSource | undefined {
  let iso: string;
  try {
    iso = toIso6393(code);
  } catch {
    return undefined; // not a language (osd, equ) or a code we cannot name
  }
  return { code, iso, name: NAMES.get(iso) ?? code, folder, gzip };
}

let scanned: { folder: string; sources: TraineddataSource[] } | undefined;

/** The models in the user's folder (read once per folder path; an unreadable folder gives none). */
export function folderTraineddata(): TraineddataSource[] {
  const given = process.env[TESSDATA_DIR_ENV];
  if (!given) return [];
  const folder = resolve(given);
  if (scanned?.folder === folder) return scanned.sources;
  const sources: TraineddataSource[] = [];
  let names: string[] = [];
  try {
    names = readdirSync(folder).sort();
  } catch {
    // a missing folder lists nothing; the error for a language then names the variable
  }
  for (const name of names) {
    const match = FILE.exec(name);
    if (!match) continue;
    const code = match[1]!.toLowerCase();
    // Both forms present: the uncompressed one is read (no need to inflate it).
    if (sources.some((existing) => existing.code === code)) {
      if (!match[2]) sources.find((existing) => existing.code === code)!.gzip = false;
      continue;
    }
    const found = source(code, folder, Boolean(match[2]));
    if (found) sources.push(found);
  }
  scanned = { folder, sources };
  return sources;
}

let packaged: TraineddataSource[] | undefined;

function packagedTraineddata(): TraineddataSource[] {
  packaged ??= PACKAGED_CODES.flatMap((code) => {
    const folder = join(
      dirname(require.resolve(`@tesseract.js-data/${code}/package.json`)),
      PACKAGE_MODEL_FOLDER,
    );
    const found = existsSync(join(folder, `${code}.traineddata.gz`)) ? source(code, folder, true) : undefined;
    return found ? [found] : [];
  });
  return packaged;
}

/** Every language Tesseract can read here: the packaged ones (unless the folder replaces them), then the folder's. */
export function availableTraineddata(): TraineddataSource[] {
  const fromFolder = folderTraineddata();
  const shipped = packagedTraineddata().map(
    (model) => fromFolder.find((own) => own.code === model.code) ?? model,
  );
  return [...shipped, ...fromFolder.filter((own) => !shipped.includes(own))];
}

export function findTraineddata(code: string): TraineddataSource | undefined {
  return availableTraineddata().find((model) => model.code === code);
}
