import { francAll } from 'franc';
import { STOPWORD_LANGUAGES, stopwordHits } from './stopwords.js';

/**
 * Language detection for `metadata.languages` (the rule users read in docs/elements.md):
 *
 * 1. The text is cut into chunks of at least CHUNK_LETTERS letters along sentences and lines; each chunk gets
 *    one language. The document's languages are those that cover at least MIXED_SHARE of its letters,
 *    most first (at most three), so a bilingual document says both and a stray quotation says nothing.
 * 2. A chunk in a non-Latin script is settled by its script and franc's trigrams.
 * 3. A Latin-script chunk goes to franc restricted to the widely written languages in CANDIDATES (which
 *    leaves out the close relatives that trigrams confuse with them, such as Scots for English). When
 *    several score within CONTENDER_MARGIN of the best, function words ("the", "los", "der"... of 18
 *    languages, stopwords.ts) pick among them. Plain ASCII with no function word, where English is one of
 *    the close contenders (tables, codes, names), is taken as English, the usual case. Short chunks (under TRIGRAM_LETTERS
 *    letters) are decided by function words alone, or English for plain ASCII.
 * 4. URLs and e-mail addresses are ignored. Fewer than MIN_LETTERS letters: no answer (undefined). Per element, short elements then inherit the
 *    document's languages.
 * Codes are ISO 639-3, macrolanguages where franc names a member (cmn → zho, arb → ara, nob → nor...).
 */

/** Fewer letters than this and any answer is a guess: say nothing. */
export const MIN_LETTERS = 12;
/** Trigram detection needs this many letters; shorter chunks rely on function words. */
const TRIGRAM_LETTERS = 40;
/** Chunks are at least this long, so each carries enough evidence. */
const CHUNK_LETTERS = 60;
/** franc scores within this distance of the best are close contenders (scores are normalised to 1). */
const CONTENDER_MARGIN = 0.03;
/** A second or third language must cover this share of the letters. */
const MIXED_SHARE = 0.05;
/** A chunk with at least this many function words of one language, */
const CLEAR_STOPWORD_HITS = 3;
/** ... and this many times those of any other, is that language. */
const CLEAR_STOPWORD_LEAD = 3;
/** Detection reads at most this much of a long text: its start and its middle. */
const SAMPLE_CHARS = 8_000;

/** Languages franc may answer: the widely written ones (scripts with one language are implied). */
const CANDIDATES = (
  'eng spa por fra deu ita nld swe dan nob fin pol ces slk hun ron hrv bos srp slv lit lvs ekk cat glg eus ' +
  'tur azj uzn ind zlm jav sun tgl ceb vie swh hau yor ibo zul xho afr som epo ' +
  'rus ukr bel bul mkd kaz kir tgk tat khk arb urd pes hin mar npi heb ydd amh tir mya ' +
  'cmn jpn kor ell tha kat hye ben tam tel kan mal guj pan ori sin khm lao bod'
).split(' ');

/** franc names individual languages where ISO 639-3 users expect the macrolanguage. */
const MACROLANGUAGE: Record<string, string> = {
  cmn: 'zho',
  arb: 'ara',
  pes: 'fas',
  zlm: 'msa',
  swh: 'swa',
  nob: 'nor',
  uzn: 'uzb',
  azj: 'aze',
  ekk: 'est',
  lvs: 'lav',
  khk: 'mon',
  npi: 'nep',
  ydd: 'yid',
};

const LETTER = /\p{L}/gu;
const LATIN_LETTER = /\p{Script=Latin}/gu;
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/gu;

function count(text: string, pattern: RegExp): number {
  return text.match(pattern)?.length ?? 0;
}

/** Addresses carry no language: URLs and e-mail addresses are removed before detection. */
const NOT_LANGUAGE = /\b(?:https?:\/\/|www\.)\S+|\S+@\S+\.\w+/gi;

export interface DetectOptions {
  /**
   * Take plain ASCII without any function word as English (default). Per-element detection turns it off,
   * so that a short label in a Spanish document inherits "spa" instead of becoming "eng".
   */
  asciiIsEnglish?: boolean;
}

export function detectLanguages(text: string, options: DetectOptions = {}): string[] | undefined {
  const asciiIsEnglish = options.asciiIsEnglish ?? true;
  const sample = sampleOf(text).replace(NOT_LANGUAGE, ' ');
  if (count(sample, LETTER) < MIN_LETTERS) return undefined;
  const votes = new Map<string, number>();
  for (const chunk of chunksOf(sample)) {
    const language = detectChunk(chunk, asciiIsEnglish);
    if (language) votes.set(language, (votes.get(language) ?? 0) + count(chunk, LETTER));
  }
  if (votes.size === 0) return undefined;
  const total = [...votes.values()].reduce((a, b) => a + b, 0);
  const ranked = [...votes.entries()].sort((a, b) => b[1] - a[1]);
  const chosen = ranked.filter(([, letters], index) => index === 0 || letters / total >= MIXED_SHARE);
  return chosen.slice(0, 3).map(([language]) => language);
}

/** The single most likely language, or undefined. */
export function detectLanguage(text: string, options: DetectOptions = {}): string | undefined {
  return detectLanguages(text, options)?.[0];
}

function sampleOf(text: string): string {
  if (text.length <= SAMPLE_CHARS) return text;
  const half = SAMPLE_CHARS / 2;
  const middle = Math.floor(text.length / 2);
  return `${text.slice(0, half)}\n${text.slice(middle, middle + half)}`;
}

/**
 * Sentences and lines merged until each chunk has CHUNK_LETTERS letters (a short last piece joins its
 * predecessor), so a paragraph that switches language between sentences is seen as such.
 */
function chunksOf(sample: string): string[] {
  const chunks: string[] = [];
  let current = '';
  for (const line of sample.split(/\n+|(?<=[.!?。！？]["'”’]?)\s+(?=["'“‘¡¿]?\p{Lu})/u)) {
    current = current ? `${current}\n${line}` : line;
    if (count(current, LETTER) >= CHUNK_LETTERS) {
      chunks.push(current);
      current = '';
    }
  }
  if (current) {
    if (chunks.length > 0 && count(current, LETTER) < CHUNK_LETTERS / 2)
      chunks.push(`${chunks.pop()}\n${current}`);
    else chunks.push(current);
  }
  return chunks;
}

function detectChunk(chunk: string, asciiIsEnglish: boolean): string | undefined {
  const letters = count(chunk, LETTER);
  if (letters < MIN_LETTERS) return undefined;
  const kana = count(chunk, KANA);
  if (kana >= letters * 0.05) return 'jpn'; // Japanese mixes kana into Han text; franc may see Han only
  if (count(chunk, LATIN_LETTER) < letters / 2) return francBest(chunk);
  return detectLatin(chunk, letters, asciiIsEnglish);
}

function detectLatin(chunk: string, letters: number, asciiIsEnglish: boolean): string | undefined {
  const words = chunk.toLowerCase().match(/\p{L}+(?:['’]\p{L}+)?/gu) ?? [];
  const hits = [...stopwordHits(words).entries()].sort((a, b) => b[1] - a[1]);
  const [first, second] = hits;
  const ascii = asciiIsEnglish && /^[\x00-\x7f]*$/.test(chunk);
  if (letters < TRIGRAM_LETTERS) {
    if (first && first[1] > (second?.[1] ?? 0)) return first[0];
    return ascii ? 'eng' : undefined;
  }
  // Clear function-word evidence decides without the trigram model, which costs ~20× more per chunk
  // and is what made detection the largest fixed cost of partitioning small documents.
  if (first && first[1] >= CLEAR_STOPWORD_HITS && first[1] >= CLEAR_STOPWORD_LEAD * (second?.[1] ?? 0))
    return first[0];
  const ranked = francAll(chunk, { only: CANDIDATES, minLength: 1 });
  const best = ranked[0];
  if (!best || best[0] === 'und') return undefined;
  // Close relatives score alike on trigrams; function words decide between the close contenders.
  const contenders = ranked
    .filter(([, score]) => score >= best[1] - CONTENDER_MARGIN)
    .map(([code]) => normalise(code));
  if (first && first[1] >= 2 && contenders.includes(first[0])) return first[0];
  // Plain ASCII with no function word of any language and no clear trigram winner: names, codes, tables.
  if (ascii && !first && contenders.length > 1 && contenders.includes('eng')) return 'eng';
  const language = normalise(best[0]);
  // franc named a language whose function words we know, yet none of them occurs: a guess. A close
  // contender with function words wins; with none at all the text is not prose (names, codes, numbers).
  if (STOPWORD_LANGUAGES.has(language) && !hits.some(([code]) => code === language)) {
    const closeWithWords = hits.find(([code]) => contenders.includes(code));
    if (closeWithWords) return closeWithWords[0];
    if (!first) return ascii ? 'eng' : undefined;
  }
  return language;
}

function normalise(code: string): string {
  return MACROLANGUAGE[code] ?? code;
}

function francBest(chunk: string): string | undefined {
  const [best] = francAll(chunk, { only: CANDIDATES, minLength: 1 });
  if (!best || best[0] === 'und') return undefined;
  return normalise(best[0]);
}
