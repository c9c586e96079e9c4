import type { Entities, EntityItem } from '../types.js';
import { findNamedEntities } from './named-entities.js';
import { findRelationships } from './relationships.js';
import { analyseText, type Span, type TextAnalysis } from './text-analysis.js';

/**
 * The local engine: no network, no download. wink-nlp gives tokens, sentences, POS tags and pattern
 * entities (dates, money...); compromise gives people, organisations and places; relationships come
 * from ./relationships.ts. Overlapping mentions keep the longer one (a tie keeps wink's typed
 * patterns: "May 2021" is a DATE, not a person called May).
 */
export function extractLocally(text: string): Entities {
  if (text.trim() === '') return { items: [], relationships: [] };
  const analysis = analyseText(text);
  const mentions = resolveOverlaps([
    ...analysis.entities,
    ...namesInSentencesWithProperNouns(text, analysis),
  ]);
  const items: EntityItem[] = [];
  const seen = new Set<string>();
  for (const mention of mentions) {
    const key = `${mention.type}\u0000${mention.text}`;
    if (seen.has(key)) continue;
    seen.add(key);
    items.push({ entity: mention.text, type: mention.type });
  }
  return { items, relationships: findRelationships(mentions, analysis, text) };
}

/**
 * compromise costs ~10× more than wink, so it reads only the sentences in which wink tagged a proper
 * noun (PROPN): a sentence without one names no person, organisation or place.
 */
function namesInSentencesWithProperNouns(text: string, analysis: TextAnalysis): Span[] {
  const spans: Span[] = [];
  for (const sentence of analysis.sentences) {
    const hasProperNoun = analysis.tokens.some(
      (token) => token.pos === 'PROPN' && token.start >= sentence.start && token.end <= sentence.end,
    );
    if (!hasProperNoun) continue;
    for (const span of findNamedEntities(text.slice(sentence.start, sentence.end))) {
      spans.push({ ...span, start: span.start + sentence.start, end: span.end + sentence.start });
    }
  }
  return spans;
}

/** Mentions in text order without overlaps; on overlap the longer span wins, then the earlier listed. */
function resolveOverlaps(spans: Span[]): Span[] {
  const ranked = spans
    .map((span, order) => ({ span, order }))
    .sort((a, b) => b.span.end - b.span.start - (a.span.end - a.span.start) || a.order - b.order);
  const kept: Span[] = [];
  for (const { span } of ranked) {
    if (kept.some((k) => span.start < k.end && k.start < span.end)) continue;
    kept.push(span);
  }
  return kept.sort((a, b) => a.start - b.start);
}
