import type { ElementType } from '../elements/element-types.js';

/**
 * Classify a block of plain text (txt, PDF text-layer blocks, OCR lines) the way users of document
 * partitioners expect: bullets → ListItem, sentences with a verb → NarrativeText, short capitalised
 * phrases → Title, the rest → UncategorizedText. Thresholds are constants with the reasons beside them.
 */

/** Bullet characters that start a list item (removed from the item text). */
const BULLETS = '•●○◦▪▫■□‣⁃∙◆◇►▸▹➢➤✓✔✗✘*·-–—';
/**
 * Symbol and Wingdings bullets reach text as private-use characters when the font has no Unicode map
 * (U+F0B7 is Symbol's bullet, U+F0A7 Wingdings' small square, U+F0D8 its arrowhead, U+F0FC its tick …).
 */
export const SYMBOL_FONT_BULLETS = '\uf0b7\uf0a7\uf0a8\uf0d8\uf0e0\uf0fc\uf076\uf06e\uf06c\uf09f\uf0a1';
const BULLET_PATTERN = new RegExp(
  `^\\s*[${BULLETS.replace('-', '\\-')}${SYMBOL_FONT_BULLETS}](?:\\s+|$)`,
  'u',
);
/** "1.", "1)", "(a)", "iv.", "A." followed by text. */
const NUMBERED_PATTERN =
  /^\s*(?:\(?\d{1,3}[.)]|\(?[a-z][.)]|\(?[ivxlc]{1,6}[.)]|\(\d{1,3}\)|\d{1,3}(?:\.\d{1,3})+\.?)\s+\S/i;
const EMAIL_PATTERN = /^[a-z0-9.\-+_]+@[a-z0-9.\-+_]+\.[a-z]+$/i;
const US_STATES =
  'AL|AK|AZ|AR|CA|CO|CT|DE|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|NJ|NM|NY|NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY|DC';
const US_ADDRESS = new RegExp(
  `^\\d{1,6}\\s+[\\w .'-]+,?\\s+[\\w .'-]+,?\\s+(?:${US_STATES})\\.?\\s+\\d{5}(?:-\\d{4})?$`,
);
/** A sentence ends in . ! ? … (or their CJK forms), optionally followed by closing quotes or brackets. */
const SENTENCE_END = /[.!?…。！？።။។།꧉][\p{Pf}\p{Pe}"']*$/u;
const SENTENCE_SPLIT = /(?<=[.!?])\s+(?=[\p{Lu}\d"'(])|(?<=[。！？።။។།꧉])/u;
/** Scripts written without spaces between words: their characters count as half a word each. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Yi}]/gu;
const HAS_UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Yi}]/u;
/**
 * Thai, Lao, Khmer, Myanmar, Javanese and Balinese write words without spaces (spaces separate
 * phrases): their letters count as one word per four, about their average word length (marks excluded).
 */
const UNSPACED_ALPHABETIC =
  /[\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\p{Script=Javanese}\p{Script=Balinese}]/u;
const UNSPACED_ALPHABETIC_LETTERS =
  /[\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\p{Script=Javanese}\p{Script=Balinese}]/gu;
/** Ethiopic separates words with "፡" (and ends sentences with "።"), Tibetan syllables with "་";
 * Javanese and others may use zero-width spaces. */
const WORD_SEPARATORS = /[\s\u200b\u1361\u1362\u0f0b]+/u;
const URL = /^(?:https?:\/\/|www\.)\S+$/i;
const PAGE_NUMBER =
  /^(?:(?:page|p\.|pg\.?|seite|página|pagina|pág\.?)\s*\d{1,5}(?:\s*(?:of|von|de|di|sur|\/)\s*\d{1,5})?|[-–—]\s*\d{1,5}\s*[-–—])$/iu;
/** "Doylestown, PA 18901": a town, a US state and a ZIP code. */
const US_TOWN = new RegExp(`^[\\p{L} .'-]+,\\s*(?:${US_STATES})\\.?\\s+\\d{5}(?:-\\d{4})?$`, 'iu');
/** "221B Baker Street, London NW1 6XE": a number, a street, a town and a UK postcode. */
const UK_ADDRESS = /^\d+[A-Z]?\s+[\w .'-]+,\s*[\w .'-]+?\s+[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}$/;
/** "Pariser Platz 1, 10117 Berlin": street and number, then postal code and town (DE, AT, CH, NL...). */
const STREET_NUMBER_ADDRESS =
  /^[\p{L} .'-]+\s\d+[a-z]?,\s*(?:\d{4,5}|\d{4}\s?[A-Z]{2})\s+\p{Lu}[\p{L} .'-]*$/u;
/** Month names (English, German, French, Spanish), full or abbreviated. */
const MONTH =
  '(?:jan(?:uary|uar|vier)?|feb(?:ruary|ruar)?|f[ée]vr(?:ier)?|mar(?:ch)?|m[äa]rz|mars|apr(?:il)?|avr(?:il)?|may|mai|june?|juni|juin|july?|juli|juil(?:let)?|aug(?:ust)?|ao[uû]t|sep(?:t(?:ember)?)?|oct(?:ober)?|okt(?:ober)?|nov(?:ember)?|dec(?:ember)?|dez(?:ember)?|d[ée]c(?:embre)?|enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|octubre|noviembre|diciembre)';
/**
 * "Dec 13, 2022 - ...", "Chapter 3, 2021 edition": a month or a document word before the number reads
 * as street and house number to STREET_NUMBER_ADDRESS; they never name a street.
 */
const NOT_A_STREET = new RegExp(
  `^(?:${MONTH}|chapter|section|part|page|volume|vol|article|item|version|release|step|phase|figure|table|room)\\.?\\s+\\d`,
  'iu',
);
/** "12 rue de Rivoli, 75004 Paris": number and street, then a five-digit postal code and town. */
const NUMBER_STREET_ADDRESS = /^\d+[a-z]?(?:\s(?:bis|ter))?,?\s+[\p{L} .'-]+,\s*\d{5}\s+[\p{L} .'-]+$/u;

/** A full date at the start: "Dec 13, 2022", "Monday, March 4, 2024", "13 December 2022". */
const LEADING_DATE = new RegExp(
  `^(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day,?\\s+)?(?:${MONTH}\\.?\\s+\\d{1,2}(?:st|nd|rd|th)?,?\\s+\\d{4}|\\d{1,2}(?:st|nd|rd|th)?\\.?\\s+${MONTH}\\.?,?\\s+\\d{4})(?!\\d)`,
  'iu',
);
/** "Figure 3:", "Fig. 2.", "Table 1 -": a numbered caption of a figure or table. */
const NUMBERED_CAPTION =
  /^(?:fig(?:ure)?\.?|table|tab\.|chart|exhibit|plate|image|photo|diagram|graph|scheme|listing)\s*[0-9IVXivx]+[a-z]?\s*[:.\-–—|]\s*\S/iu;
/** "Source: ...": the attribution printed under a figure, a table or a quote (English, German, French, Spanish). */
const SOURCE_LINE = /^(?:(?:data\s+)?sources?|quellen?|fuentes?|sources? des données)\s*:\s*\S/iu;
/** A caption or source line is a line or two; longer text that begins like one is prose. */
const CAPTION_MAX_WORDS = 60;

/** A title has at most this many words. */
const TITLE_MAX_WORDS = 12;
/** Below this share of letters among non-space characters, a text is a label or a number, not prose. */
const MIN_ALPHA_RATIO = 0.5;
/** Above this share of capitalised words, a single sentence reads as a heading. */
const CAP_RATIO_THRESHOLD = 0.5;

export function isBulleted(text: string): boolean {
  return BULLET_PATTERN.test(text);
}

export function stripBullet(text: string): string {
  return text.replace(BULLET_PATTERN, '').trim();
}

export function isNumberedListItem(text: string): boolean {
  const match = NUMBERED_PATTERN.exec(text);
  if (!match || text.trim().split(/\s+/).length > 80) return false;
  // The text after the number must have words: "(555) 123-4567" is a phone number, not an item.
  return /\p{L}{2}/u.test(text.slice(match[0].length - 1));
}

export function isEmailAddress(text: string): boolean {
  return EMAIL_PATTERN.test(text.trim());
}

export function isUsAddress(text: string): boolean {
  return US_ADDRESS.test(text.trim().replace(/\s+/g, ' '));
}

/** A postal address on one line: US, UK, or continental European forms. */
export function isAddress(text: string): boolean {
  const line = text.trim().replace(/\s+/g, ' ');
  if (line.length > 120) return false;
  return (
    US_ADDRESS.test(line) ||
    US_TOWN.test(line) ||
    UK_ADDRESS.test(line) ||
    (STREET_NUMBER_ADDRESS.test(line) && !NOT_A_STREET.test(line)) ||
    NUMBER_STREET_ADDRESS.test(line)
  );
}

/**
 * A numbered caption ("Figure 3: ...", "Table 2. ..."): it names its figure or table, so the type is
 * certain from the text alone.
 */
export function isCaption(text: string): boolean {
  const trimmed = text.trim();
  return NUMBERED_CAPTION.test(trimmed) && wordCount(trimmed) <= CAPTION_MAX_WORDS;
}

/**
 * A source or attribution line ("Source: Bureau of Labor Statistics"). It is neither a heading (a Title
 * would open a section) nor prose. Without layout it cannot be told whether a figure or a table sits
 * next to it, so it is UncategorizedText; code that sees the figure may call it FigureCaption.
 */
export function isSourceLine(text: string): boolean {
  const trimmed = text.trim();
  return SOURCE_LINE.test(trimmed) && wordCount(trimmed) <= CAPTION_MAX_WORDS;
}

/** Text that starts with a full date: a dateline or a date stamp when it is not prose. */
export function startsWithDate(text: string): boolean {
  return LEADING_DATE.test(text.trim());
}

export function isPageNumber(text: string): boolean {
  return PAGE_NUMBER.test(text.trim());
}

/** Share of letters among non-space characters; combining marks (vowel signs of Indic and Southeast
 * Asian scripts, accents written apart) belong to their letters. */
export function alphaRatio(text: string): number {
  const chars = text.replace(/\s/g, '');
  if (chars.length === 0) return 0;
  const letters = chars.match(/[\p{L}\p{M}]/gu)?.length ?? 0;
  return letters / chars.length;
}

export function isNumeric(text: string): boolean {
  return /^[\s\d.,%$€£¥()+\-/:]+$/u.test(text) && /\d/.test(text);
}

export function sentences(text: string): string[] {
  return text
    .split(SENTENCE_SPLIT)
    .map((s) => s.trim())
    .filter(Boolean);
}

function words(text: string): string[] {
  return text.split(WORD_SEPARATORS).filter(Boolean);
}

/**
 * Words, counting Chinese, Japanese and Yi characters as one word per two characters, and the letters
 * of Thai, Lao, Khmer, Myanmar, Javanese and Balinese as one word per four.
 */
export function wordCount(text: string): number {
  const unspaced = text.match(UNSPACED)?.length ?? 0;
  if (unspaced === 0 && !UNSPACED_ALPHABETIC.test(text)) return words(text).length;
  let count = Math.ceil(unspaced / 2);
  for (const word of words(text.replace(UNSPACED, ' '))) {
    if (!/\p{L}|\d/u.test(word)) continue;
    const southeastAsian =
      word.match(UNSPACED_ALPHABETIC_LETTERS)?.filter((c) => /\p{L}/u.test(c)).length ?? 0;
    count += southeastAsian > 0 ? Math.max(1, Math.ceil(southeastAsian / 4)) : 1;
  }
  return count;
}

function hasCasedLetters(text: string): boolean {
  return text.toUpperCase() !== text.toLowerCase();
}

/** Ends like a sentence and is long enough to be one. */
function isSentence(text: string): boolean {
  // A zero-width space after the full stop (Javanese and Thai text carry them) is still the end.
  return SENTENCE_END.test(text.replace(/\u200b+$/u, '')) && wordCount(text) >= 5;
}

/** Share of alphabetic words that start with a capital (single-sentence texts only). */
export function exceedsCapRatio(text: string, threshold = CAP_RATIO_THRESHOLD): boolean {
  if (sentences(text).filter((s) => words(s).length >= 3).length > 1) return false;
  // Capitals mean nothing in scripts without case (Chinese, Arabic, Javanese...).
  if (!hasCasedLetters(text)) return false;
  if (text === text.toUpperCase()) return true;
  const alphabetic = words(text).filter((w) => /^\p{L}/u.test(w));
  if (alphabetic.length === 0) return true;
  const capitalised = alphabetic.filter((w) => /^\p{Lu}/u.test(w)).length;
  return capitalised / alphabetic.length > threshold;
}

const COMMON_VERBS = new Set(
  (
    'is are was were be been being am has have had do does did will would shall should can could may might must ' +
    'make makes made get gets got go goes went take takes took see sees saw come comes came know knows knew ' +
    'give gives gave find finds found think thinks thought tell tells told become becomes became show shows showed ' +
    'leave leaves left feel feels felt put puts bring brings brought begin begins began keep keeps kept hold holds held ' +
    'write writes wrote stand stands stood hear hears heard let lets mean means meant set sets meet meets met run runs ran ' +
    'pay pays paid sit sits sat speak speaks spoke lie lies lay lead leads led read reads grow grows grew lose loses lost ' +
    'fall falls fell send sends sent build builds built understand understands understood draw draws drew break breaks broke ' +
    'spend spends spent cut cuts rise rises rose drive drives drove buy buys bought wear wears wore choose chooses chose ' +
    'seek seeks sought throw throws threw catch catches caught deal deals dealt win wins won sell sells sold ' +
    'use uses provide provides include includes contain contains require requires allow allows need needs want wants ' +
    'help helps work works call calls try tries ask asks seem seems turn turns start starts look looks follow follows ' +
    'describe describes present presents propose proposes apply applies consider considers remain remains'
  ).split(' '),
);

/** Words ending like verb forms that are nouns or adjectives (or prepositions: "during"). */
const NOT_VERBS = new Set(
  (
    'hundred kindred sacred naked wicked rugged ragged jagged crooked wretched beloved indeed speed greed tweed ' +
    'creed steed breed seed weed deed reed feed bed shed sled red ' +
    'thing something nothing anything everything during morning evening spring string ring king wing sibling ' +
    'ceiling darling wedding pudding lightning sterling awning herring inkling offspring duckling seedling earring'
  ).split(' '),
);
const AUXILIARIES = new Set(
  'is are was were be been being am has have had do does did will would shall should can could may might must'.split(
    ' ',
  ),
);
/** After one of these, a word is a noun (or an adjective): "the meeting", "a call", "our work". */
const DETERMINERS = new Set(
  'the a an this that these those my your his her its our their each every no any some another whose'.split(
    ' ',
  ),
);
/** Before an -ing word, these make it a gerund, which taggers count as a verb: "thanks for joining". */
const PREPOSITIONS = new Set(
  'for by of in on at with without after before about from into upon while when'.split(' '),
);
/** Contractions of auxiliaries: n't, 'll, 're, 've, 'm, 'd. */
const AUXILIARY_CONTRACTION = /(?:n't|'ll|'re|'ve|'m|'d)$/;
/** 's is "is" or "has" after pronouns; after nouns it is almost always a possessive ("Director's"). */
const PRONOUN_IS = /^(?:it|that|there|here|what|who|he|she|let|where|how|when|why|everyone|nobody)'s$/;

/**
 * Whether the text has a verb. No POS tagger is loaded on this hot path; the rules approximate one:
 * - common verbs and auxiliaries (COMMON_VERBS) and auxiliary contractions count;
 * - regular past tenses (-ed) count, except known nouns and adjectives (NOT_VERBS);
 * - -ing words count only where English uses them as verbs without an auxiliary: at the start of the
 *   text ("Looking forward to...") or after a preposition ("by calling"); "the annual meeting" is a noun;
 * - no word right after a determiner counts ("the use", "a building"), nor a capitalised -ed/-ing word
 *   inside the text (a name: "the United Nations", "Acme Limited").
 */
export function containsVerb(text: string): boolean {
  let previous = '';
  for (const [index, raw] of words(text.replaceAll('\u2019', "'")).entries()) {
    const word = raw.toLowerCase().replace(/[^\p{L}']/gu, '');
    const before = previous;
    previous = word;
    // Auxiliaries are verbs wherever they stand ("This is", "that was"); other words after a determiner
    // are nouns or adjectives.
    if (AUXILIARIES.has(word)) return true;
    if (word === '' || DETERMINERS.has(before)) continue;
    if (COMMON_VERBS.has(word) || AUXILIARY_CONTRACTION.test(word) || PRONOUN_IS.test(word)) return true;
    if (NOT_VERBS.has(word) || (index > 0 && /^\p{Lu}/u.test(raw))) continue;
    // A stem with a vowel: "used", "agreed"; not "bed", "shed".
    const edStem = word.endsWith('ed') && !word.includes("'") ? word.slice(0, -2) : '';
    if (edStem.length >= 2 && /[aeiouy]/.test(edStem)) return true;
    const ingStem = word.endsWith('ing') ? word.slice(0, -3) : '';
    if (ingStem.length >= 2 && /[aeiouy]/.test(ingStem) && (index === 0 || PREPOSITIONS.has(before)))
      return true;
  }
  return false;
}

export function isPossibleTitle(text: string): boolean {
  const trimmed = text.trim();
  if (trimmed === '') return false;
  if (hasCasedLetters(trimmed) && trimmed === trimmed.toUpperCase() && /[.!?,;]$/.test(trimmed)) return false;
  if (wordCount(trimmed) > TITLE_MAX_WORDS) return false;
  if (alphaRatio(trimmed) < MIN_ALPHA_RATIO) return false;
  // A heading has a real word: two letters in a row (or a CJK character); "A1 B2 C3" is a code.
  if (!/\p{L}{2}/u.test(trimmed) && !HAS_UNSPACED.test(trimmed)) return false;
  if (URL.test(trimmed)) return false;
  // Headings are made of words; a 30-character token is an identifier, a hash or base64.
  if (words(trimmed).some((word) => word.length > 30)) return false;
  if (/[,;]$/.test(trimmed)) return false;
  if (SENTENCE_END.test(trimmed) && words(trimmed).length > 1 && !/^[\d.]+\s/.test(trimmed)) return false;
  if (isNumeric(trimmed)) return false;
  if (sentences(trimmed).filter((s) => words(s).length >= 5).length > 1) return false;
  return true;
}

/**
 * Prose: at least three words, mostly letters, not shouting, and either containing a common English
 * verb or shaped like a sentence (ends in sentence punctuation with five or more words; two sentences;
 * or longer than any title). The sentence shape is what recognises prose in other languages.
 */
export function isPossibleNarrativeText(text: string): boolean {
  const trimmed = text.trim();
  if (trimmed === '' || isNumeric(trimmed) || URL.test(trimmed)) return false;
  if (alphaRatio(trimmed) < MIN_ALPHA_RATIO) return false;
  if (exceedsCapRatio(trimmed)) return false;
  const count = wordCount(trimmed);
  if (count < 3) return false;
  if (containsVerb(trimmed) || isSentence(trimmed) || count > TITLE_MAX_WORDS) return true;
  return sentences(trimmed).filter((s) => wordCount(s) >= 3).length >= 2;
}

export interface Classified {
  type: ElementType;
  /** The text with any list bullet removed. */
  text: string;
}

/** Classify one block of text. Position-based types (Header/Footer) are decided by the layout code. */
export function classifyText(text: string): Classified {
  const trimmed = text.trim();
  if (isPageNumber(trimmed)) return { type: 'PageNumber', text: trimmed };
  if (isBulleted(trimmed)) {
    const item = stripBullet(trimmed);
    if (item !== '') return { type: 'ListItem', text: item };
  }
  if (isCaption(trimmed)) return { type: 'FigureCaption', text: trimmed };
  if (isSourceLine(trimmed)) return { type: 'UncategorizedText', text: trimmed };
  if (isEmailAddress(trimmed)) return { type: 'EmailAddress', text: trimmed };
  if (isAddress(trimmed)) return { type: 'Address', text: trimmed };
  if (isNumberedListItem(trimmed) && !isNumberedHeading(trimmed)) return { type: 'ListItem', text: trimmed };
  if (isPossibleNarrativeText(trimmed)) return { type: 'NarrativeText', text: trimmed };
  // A date line ("Dec 13, 2022 - Press release") is a stamp, not a heading.
  if (startsWithDate(trimmed)) return { type: 'UncategorizedText', text: trimmed };
  if (isPossibleTitle(trimmed)) return { type: 'Title', text: trimmed };
  return { type: 'UncategorizedText', text: trimmed };
}

/**
 * "3. Results" and "1.2 Scope of the Study" are section headings; "1. Install the package." is an item.
 * A numbered text is a heading when it could be a title, does not end in punctuation, and its first word
 * after the number is capitalised.
 */
function isNumberedHeading(text: string): boolean {
  if (!isPossibleTitle(text) || /[.;:,!?]$/.test(text)) return false;
  const afterNumber = text.replace(NUMBERED_PATTERN, (match) => match.slice(-1));
  return !/^\p{Ll}/u.test(afterNumber);
}
