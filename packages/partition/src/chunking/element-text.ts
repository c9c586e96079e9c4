import type { Element } from '../elements/element.js';

/**
 * The text an element contributes to a chunk. Runs of whitespace become one space and the ends are
 * trimmed (tabs, line wraps and double spaces from layout carry no meaning in a chunk and would waste
 * the character budget); the reference library does the same. Code keeps its lines: only trailing spaces
 * and surrounding blank lines go.
 */
export function chunkTextOf(element: Element): string {
  return element.type === 'CodeSnippet' ? tidyCode(element.text) : collapseWhitespace(element.text);
}

/** Whitespace other than single inner spaces: only texts that have some need rewriting. */
const NEEDS_COLLAPSE = /[^\S ]| {2}|^ | $/;

export function collapseWhitespace(text: string): string {
  // -- most element texts are already clean: test once instead of building a new string --
  return NEEDS_COLLAPSE.test(text) ? text.replace(/\s+/g, ' ').trim() : text;
}

function tidyCode(text: string): string {
  return text
    .replace(/[^\S\n]+$/gm, '')
    .replace(/^\s*\n/, '')
    .trimEnd();
}

/**
 * Where offset `index` of the element's raw text lands in `chunkTextOf(element)`: link offsets are given
 * in raw text, chunks need them in the normalised text. Computed by normalising the prefix the same way
 * (keeping a trailing space, which the normalised text also has before the next word).
 */
export function normalizedOffset(element: Element, index: number): number {
  const prefix = element.text.slice(0, index);
  if (element.type === 'CodeSnippet') {
    const tidy = prefix.replace(/[^\S\n]+$/gm, (spaces, offset: number) =>
      offset + spaces.length === prefix.length ? spaces : '',
    );
    return tidy.replace(/^\s*\n/, '').length;
  }
  return prefix.replace(/\s+/g, ' ').trimStart().length;
}
