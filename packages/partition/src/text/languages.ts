import { iso6393, iso6393To1 } from 'iso-639-3';
import { ServiceError } from '../errors.js';

/**
 * Language codes and detection. The service speaks ISO 639-3 ("eng") in metadata; users may give
 * ISO 639-1 ("en"), 639-3, or tesseract-style names ("chi_sim"), which are kept as they are for OCR.
 */

const ONE_TO_THREE = new Map<string, string>(Object.entries(iso6393To1).map(([three, one]) => [one, three]));
const KNOWN_THREE = new Set(iso6393.map((language) => language.iso6393));
/** Tesseract and PaddleOCR use a few script-qualified names; they map to a base language for metadata. */
const SCRIPT_VARIANTS: Record<string, string> = {
  chi_sim: 'zho',
  chi_tra: 'zho',
  zh: 'zho',
  'zh-cn': 'zho',
  'zh-tw': 'zho',
  'zh-hans': 'zho',
  'zh-hant': 'zho',
};

/** Normalise one user-given code to ISO 639-3, or throw `invalid_option` listing what is wrong. */
export function toIso6393(code: string): string {
  const lower = code.trim().toLowerCase();
  const variant = SCRIPT_VARIANTS[lower];
  if (variant) return variant;
  if (lower.length === 2 && ONE_TO_THREE.has(lower)) return ONE_TO_THREE.get(lower)!;
  if (lower.length === 3 && KNOWN_THREE.has(lower)) return lower;
  const base = lower.split(/[-_]/)[0] ?? '';
  if (base.length === 2 && ONE_TO_THREE.has(base)) return ONE_TO_THREE.get(base)!;
  throw new ServiceError('invalid_option', `Unknown language code: ${code}`, {
    details: [
      { field: 'languages', message: `unknown language code "${code}"; use ISO 639-1 (en) or 639-3 (eng)` },
    ],
  });
}

export { type DetectOptions, detectLanguage, detectLanguages } from './language-detect.js';
