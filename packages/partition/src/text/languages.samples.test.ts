import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { iso6393 } from 'iso-639-3';
import { describe, expect, it } from 'vitest';
import { detectLanguage, detectLanguages } from './language-detect.js';

/**
 * Accuracy on the language samples: the UDHR's first article in many languages (one paragraph per
 * language, headed by the language's English name) and the mixed English/Spanish documents.
 * docs/elements.md reports the numbers this suite measures.
 */
const DIR = join(
  import.meta.dirname,
  '../../../../../shared/samples/unstructured-example-docs/language-docs',
);

/** UDHR headings that are not an ISO 639-3 reference name, for languages detection covers. */
const HEADINGS: Record<string, string> = {
  'arabic, standard': 'ara',
  'chinese, mandarin (simplified)': 'zho',
  'chinese, mandarin (traditional)': 'zho',
  'persian, iranian': 'fas',
  'norwegian, bokmål': 'nor',
  malay: 'msa',
  swahili: 'swa',
  estonian: 'est',
  latvian: 'lav',
  'uzbek, northern': 'uzb',
  'azerbaijani, north (latin)': 'aze',
  nepali: 'nep',
  'yiddish, eastern': 'yid',
};
const COVERED = new Set(
  (
    'eng spa por fra deu ita nld swe dan nor fin pol ces slk hun ron hrv bos srp slv lit lav est cat glg eus tur ' +
    'aze uzb ind msa jav sun tgl ceb vie swa hau yor ibo zul xho afr som epo rus ukr bel bul mkd kaz kir tgk ' +
    'tat mon ara urd fas hin mar nep heb yid amh tir mya zho jpn kor ell tha kat hye ben tam tel kan mal guj ' +
    'pan ori sin khm lao bod'
  ).split(' '),
);

function udhrParagraphs(): { code: string; text: string }[] {
  const byName = new Map(iso6393.map((language) => [language.name.toLowerCase(), language.iso6393]));
  const text = readFileSync(join(DIR, 'UDHR_first_article_all.txt'), 'utf8');
  const result: { code: string; text: string }[] = [];
  for (const block of text.split(/\n\s*\n/)) {
    const [heading, ...lines] = block.trim().split('\n');
    if (!heading || lines.length === 0) continue;
    const code = HEADINGS[heading.toLowerCase()] ?? byName.get(heading.toLowerCase());
    if (code && COVERED.has(code)) result.push({ code, text: lines.join(' ') });
  }
  return result;
}

describe.skipIf(!existsSync(DIR))('language detection on the language samples', () => {
  it('names the language of at least 90% of the UDHR paragraphs, whole and cut to 60 characters', () => {
    const paragraphs = udhrParagraphs();
    expect(paragraphs.length).toBeGreaterThan(50);
    const whole = paragraphs.filter(({ code, text }) => detectLanguage(text) === code).length;
    const short = paragraphs.filter(({ code, text }) => detectLanguage(text.slice(0, 60)) === code).length;
    expect(whole / paragraphs.length).toBeGreaterThanOrEqual(0.9);
    expect(short / paragraphs.length).toBeGreaterThanOrEqual(0.85);
  });

  it.each([
    ['eng_spa.txt', ['eng', 'spa']],
    ['eng_spa_mult.txt', ['eng', 'spa']],
    ['eng_afr_spa.txt', ['eng', 'spa', 'afr']],
  ])('%s is %j', (name, expected) => {
    expect(detectLanguages(readFileSync(join(DIR, name), 'utf8'))).toEqual(expected);
  });
});
