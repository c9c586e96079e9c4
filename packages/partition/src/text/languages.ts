import { franc, francAll } from 'franc';
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

/** Fewer letters than this and detection is a guess; we then say nothing rather than something wrong. */
const MIN_LETTERS = 12;
/** Detection only needs a sample; longer texts cost time without changing the answer. */
const SAMPLE_CHARS = 4_000;

/**
 * Detect the languages of a text: the best guess, plus a second one when it scores almost as high
 * (mixed-language documents). Returns undefined when the text is too short to tell.
 */
export function detectLanguages(text: string): string[] | undefined {
  const sample = text.length > SAMPLE_CHARS ? text.slice(0, SAMPLE_CHARS) : text;
  const letters = sample.match(/\p{L}/gu)?.length ?? 0;
  if (letters < MIN_LETTERS) return undefined;
  // Short ASCII text is almost always English in practice, and trigram models misjudge it.
  if (letters < 40 && /^[\x20-\x7e\s]*$/.test(sample)) return ['eng'];
  const ranked = francAll(sample, { minLength: MIN_LETTERS });
  const [best, second] = ranked;
  if (!best || best[0] === 'und') return undefined;
  const result = [best[0]];
  if (second && second[0] !== 'und' && second[1] > 0.97 && sample.length > 400) result.push(second[0]);
  return result;
}

/** The single best language, or undefined. */
export function detectLanguage(text: string): string | undefined {
  const code = franc(text.slice(0, SAMPLE_CHARS), { minLength: MIN_LETTERS });
  return code === 'und' ? undefined : code;
}
