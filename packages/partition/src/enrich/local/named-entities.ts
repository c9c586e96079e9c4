import nlp from 'compromise';
import type { Span } from './text-analysis.js';

/**
 * Names of people, organisations and places, found by compromise (MIT), whose lexicon of given names,
 * company suffixes, countries and cities ships inside its npm package. wink-nlp's small English model
 * has no such entity types, so the local engine uses both libraries, each for what it does well
 * (docs/enrichment.md, docs/dependencies.md).
 */

interface Term {
  text: string;
  post: string;
  offset: { start: number; length: number };
}
interface Match {
  terms: Term[];
}

const KINDS = [
  { type: 'PERSON', select: (doc: ReturnType<typeof nlp>) => doc.people() },
  { type: 'ORGANIZATION', select: (doc: ReturnType<typeof nlp>) => doc.organizations() },
  { type: 'LOCATION', select: (doc: ReturnType<typeof nlp>) => doc.places() },
] as const;

export function findNamedEntities(text: string): Span[] {
  const doc = nlp(text);
  const spans: Span[] = [];
  for (const kind of KINDS) {
    const matches = kind.select(doc).json({ offset: true, terms: { offset: true } }) as Match[];
    for (const match of matches) {
      for (const part of splitAtCommas(match.terms)) {
        const first = part[0]!;
        const last = part.at(-1)!;
        const start = first.offset.start;
        const end = last.offset.start + last.offset.length;
        const raw = text.slice(start, end);
        const value = cleanName(raw);
        if (!value) continue;
        const at = start + raw.indexOf(value);
        spans.push({ text: value, start: at, end: at + value.length, type: kind.type });
      }
    }
  }
  return spans;
}

/** "London, United Kingdom" is two places: a comma after a term ends a name. */
function splitAtCommas(terms: Term[]): Term[][] {
  const parts: Term[][] = [[]];
  for (const term of terms) {
    parts.at(-1)!.push(term);
    if (term.post.includes(',')) parts.push([]);
  }
  return parts.filter((part) => part.length > 0);
}

/** Drop possessives and stray punctuation at the ends; keep "Inc." and "Corp." as written. */
function cleanName(value: string): string {
  return value
    .replace(/['’]s$/u, '')
    .replace(/^[^\p{L}\p{N}]+/u, '')
    .replace(/[^\p{L}\p{N}.)]+$/u, '')
    .trim();
}
