import { distance } from 'fastest-levenshtein';

/**
 * Agreement between our elements and a reference system's output for the same document. Both numbers
 * are in [0, 1], 1 meaning identical:
 * - types: 1 − (edit distance between the two sequences of element types) / (length of the longer one);
 *   an element missing, extra, or typed differently costs one edit, so order matters;
 * - text: 1 − (character edit distance between the two texts) / (length of the reference text), each
 *   text being the elements' texts joined by newlines, whitespace runs collapsed and typographic quotes
 *   made plain (the normalisation of the reference system's own text-extraction metric, ../shared/reference/
 *   partition-quality.md §1.4).
 * - typesOfMatchedText: of the reference elements whose text we also produce as one element, the share we
 *   give the same type. It tells a classification difference from a segmentation difference.
 */

export interface ComparableElement {
  type: string;
  text: string;
}

export interface Agreement {
  types: number;
  text: number;
  typesOfMatchedText: number;
  /** Reference elements whose exact (normalised) text we produce as one element. */
  matchedElements: number;
  referenceElements: number;
  ourElements: number;
}

const DOUBLE_QUOTES = /[\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb\u275d\u275e\u301d\u301e\uff02]/g;
const SINGLE_QUOTES = /[\u2018\u2019\u201a\u201b\u2032\u2039\u203a\u275b\u275c\uff07]/g;

export function normaliseText(text: string): string {
  return text.replace(DOUBLE_QUOTES, '"').replace(SINGLE_QUOTES, "'").split(/\s+/).filter(Boolean).join(' ');
}

/** Edit distance between two sequences of labels (types), by mapping each label to one character. */
export function sequenceDistance(a: readonly string[], b: readonly string[]): number {
  const codes = new Map<string, string>();
  const encode = (labels: readonly string[]) =>
    labels
      .map((label) => {
        if (!codes.has(label)) codes.set(label, String.fromCharCode(0x4e00 + codes.size));
        return codes.get(label)!;
      })
      .join('');
  return distance(encode(a), encode(b));
}

export function agreement(
  ours: readonly ComparableElement[],
  reference: readonly ComparableElement[],
): Agreement {
  const longest = Math.max(ours.length, reference.length);
  const types =
    longest === 0
      ? 1
      : 1 -
        sequenceDistance(
          ours.map((e) => e.type),
          reference.map((e) => e.type),
        ) /
          longest;
  const ourText = normaliseText(ours.map((e) => e.text).join('\n'));
  const referenceText = normaliseText(reference.map((e) => e.text).join('\n'));
  const text =
    referenceText.length === 0
      ? ourText.length === 0
        ? 1
        : 0
      : Math.max(0, 1 - distance(ourText, referenceText) / referenceText.length);

  // Our elements by normalised text, each usable once, in order.
  const byText = new Map<string, string[]>();
  for (const element of ours) {
    const key = normaliseText(element.text);
    byText.set(key, [...(byText.get(key) ?? []), element.type]);
  }
  let matched = 0;
  let sameType = 0;
  for (const element of reference) {
    const candidates = byText.get(normaliseText(element.text));
    if (!candidates || candidates.length === 0) continue;
    matched++;
    const index = candidates.indexOf(element.type);
    if (index >= 0) {
      sameType++;
      candidates.splice(index, 1);
    } else candidates.shift();
  }
  return {
    types,
    text,
    typesOfMatchedText: matched === 0 ? 0 : sameType / matched,
    matchedElements: matched,
    referenceElements: reference.length,
    ourElements: ours.length,
  };
}
