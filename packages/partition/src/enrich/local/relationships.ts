import type { Relationship } from '../types.js';
import type { Span, TextAnalysis } from './text-analysis.js';

/**
 * Simple subject–verb–object relationships between named entities, from part-of-speech tags:
 * within one sentence, two consecutive names joined by a short phrase that contains a verb give
 * `{from: first, relationship: phrase, to: second}`:
 *
 *   "Toyota opened a factory in Texas"           → Toyota —opened a factory in→ Texas
 *   "Microsoft was founded by Bill Gates and Paul Allen"
 *                                                 → Microsoft —was founded by→ Bill Gates, and → Paul Allen
 *
 * A name joined to the previous object by "and" / "," only shares its relationship (coordination).
 * This is deliberately shallow: no parse tree, so long or nested clauses give no relationship rather
 * than a wrong one.
 */

/** Entity types that can be ends of a relationship. */
const NAMED = new Set(['PERSON', 'ORGANIZATION', 'LOCATION']);
const MAX_PHRASE_WORDS = 5;

export function findRelationships(
  mentions: readonly Span[],
  analysis: TextAnalysis,
  text: string,
): Relationship[] {
  const relationships: Relationship[] = [];
  const named = mentions.filter((m) => NAMED.has(m.type));
  const sentenceOf = (position: number) =>
    analysis.sentences.findIndex((s) => position >= s.start && position < Math.max(s.end, s.start + 1));

  let previous: { from: string; relationship: string } | undefined;
  for (let i = 1; i < named.length; i++) {
    const subject = named[i - 1]!;
    const object = named[i]!;
    if (sentenceOf(subject.start) !== sentenceOf(object.start)) {
      previous = undefined;
      continue;
    }
    const between = text.slice(subject.end, object.start);
    if (/^\s*(,|and|or|,\s*and)\s*$/i.test(between) && previous) {
      // "…by Bill Gates and Paul Allen": Paul Allen takes the same relationship.
      relationships.push({ from: previous.from, relationship: previous.relationship, to: object.text });
      continue;
    }
    previous = undefined;
    const phrase = normalisePhrase(between);
    const words = phrase.split(' ').filter(Boolean);
    if (words.length === 0 || words.length > MAX_PHRASE_WORDS || /[;:()]/.test(between)) continue;
    const hasVerb = analysis.tokens.some(
      (token) =>
        token.start >= subject.end &&
        token.end <= object.start &&
        (token.pos === 'VERB' || token.pos === 'AUX'),
    );
    if (!hasVerb) continue;
    relationships.push({ from: subject.text, relationship: phrase, to: object.text });
    previous = { from: subject.text, relationship: phrase };
  }
  return dedupe(relationships);
}

/** Lower-case words only, single spaces, no leading/trailing punctuation or articles ("the", "a"). */
function normalisePhrase(between: string): string {
  return between
    .replace(/[“”"'’,]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase()
    .replace(/\s+(the|a|an)$/u, '');
}

function dedupe(relationships: Relationship[]): Relationship[] {
  const seen = new Set<string>();
  return relationships.filter((r) => {
    const key = `${r.from}\u0000${r.relationship}\u0000${r.to}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
