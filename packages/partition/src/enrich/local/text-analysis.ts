import model from 'wink-eng-lite-web-model';
import winkNLP from 'wink-nlp';

/**
 * One pass of wink-nlp (MIT; its English "lite web" model ships inside the npm package, so nothing is
 * downloaded) over a text: tokens with character offsets and part-of-speech tags, sentence boundaries,
 * and the entities its model recognises by pattern (dates, times, durations, money, percentages,
 * e-mail addresses, URLs, hashtags, mentions). Names of people, organisations and places are not among
 * them: ./named-entities.ts finds those.
 */
export interface Token {
  text: string;
  start: number;
  end: number;
  /** Universal POS tag (VERB, AUX, PROPN, NOUN, ADP...). */
  pos: string;
}

export interface Span {
  text: string;
  start: number;
  end: number;
  type: string;
}

export interface TextAnalysis {
  tokens: Token[];
  /** Sentence boundaries as character ranges. */
  sentences: { start: number; end: number }[];
  /** Pattern entities, with the clear type names of ./entity-types.ts. */
  entities: Span[];
}

/** wink's entity types → the names we publish. Types not listed (CARDINAL, ORDINAL, EMOJI...) are dropped. */
const WINK_TYPES: Record<string, string> = {
  DATE: 'DATE',
  TIME: 'TIME',
  DURATION: 'DURATION',
  MONEY: 'MONEY',
  PERCENT: 'PERCENT',
  EMAIL: 'EMAIL',
  URL: 'URL',
  HASHTAG: 'HASHTAG',
  MENTION: 'MENTION',
};

// Only the annotators we use: skipping sentiment and negation makes reading ~30% faster.
const nlp = winkNLP(model, ['sbd', 'pos', 'ner']);
const its = nlp.its;

export function analyseText(text: string): TextAnalysis {
  const doc = nlp.readDoc(text);
  const values = doc.tokens().out() as string[];
  const tags = doc.tokens().out(its.pos) as string[];
  // Offsets: find each token in the original text from where the previous one ended, so the spans
  // point at the user's text exactly (wink keeps token values as written).
  const tokens: Token[] = [];
  let cursor = 0;
  values.forEach((value, index) => {
    const found = text.indexOf(value, cursor);
    const start = found === -1 ? cursor : found;
    const end = found === -1 ? cursor : start + value.length;
    tokens.push({ text: value, start, end, pos: tags[index] ?? 'X' });
    cursor = end;
  });
  const range = (span: number[]): { start: number; end: number } => {
    const first = tokens[span[0] ?? 0];
    const last = tokens[span[1] ?? span[0] ?? 0];
    return { start: first?.start ?? 0, end: last?.end ?? 0 };
  };
  const sentences = (doc.sentences().out(its.span) as unknown as number[][]).map(range);
  const entities: Span[] = [];
  const entityTypes = doc.entities().out(its.type) as string[];
  const entitySpans = doc.entities().out(its.span) as unknown as number[][];
  entitySpans.forEach((span, index) => {
    const type = WINK_TYPES[entityTypes[index] ?? ''];
    if (!type) return;
    const { start } = range(span);
    let { end } = range(span);
    // A sentence's full stop sticks to a URL or address at its end ("see https://x.org/a.").
    if (type === 'URL' || type === 'EMAIL') while (end > start && /[.,;:!?)]/.test(text[end - 1]!)) end--;
    entities.push({ text: text.slice(start, end), start, end, type });
  });
  return { tokens, sentences, entities };
}
