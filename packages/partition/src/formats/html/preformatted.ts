import type { Element } from 'domhandler';
import { draft, type ElementDraft } from '../../elements/element.js';
import { partitionPlainText } from '../txt/partition.js';
import { hasDescendant, textContent } from './dom.js';

/**
 * <pre> (and a lone <code>) → CodeSnippet with its whitespace kept. One exception: some sites publish
 * whole plain-text documents (laws, RFCs, old e-mails) inside one <pre>. A long preformatted text with
 * almost none of the characters code is made of is read as plain text instead (paragraphs, titles,
 * list items), so a 400 KB law is not one CodeSnippet. Marked-up code (<code>, class="language-x") is
 * always code.
 */

/** Shorter preformatted texts are always kept whole: the heuristic needs enough text to be sure. */
const PROSE_MIN_CHARS = 2000;
/**
 * Code punctuation per character (braces, =, <, >, a ; ending a line, (), ::, ->, //, # comments).
 * Measured: JavaScript 0.039, Python 0.019, shell and config files 0.018-0.066, a Python module that is
 * mostly docstrings 0.004, READMEs 0.007-0.008, a preformatted US law text 0.0017. Below this: prose.
 * Keywords are not counted: "for", "if" and "class" are English words too.
 */
const PROSE_MAX_CODE_DENSITY = 0.003;
const CODE_TOKENS = /[{}=<>]|;[ \t]*$|\(\)|::|->|\/\/|^\s*#/gm;

export function codeDensity(text: string): number {
  if (text.length === 0) return 0;
  let count = 0;
  for (const _ of text.matchAll(CODE_TOKENS)) count++;
  return count / text.length;
}

function isMarkedAsCode(element: Element): boolean {
  if (element.name === 'code') return true;
  if (/\b(?:lang|language|highlight|sourceCode)\b|\blang(?:uage)?-/i.test(element.attribs.class ?? ''))
    return true;
  return hasDescendant(element, (child) => child.name === 'code' || child.name === 'samp');
}

export function preformattedDrafts(
  element: Element,
  chrome: 'Header' | 'Footer' | undefined,
): ElementDraft[] {
  // HTML drops one newline right after <pre>; blank lines around the text are not content either.
  const text = textContent(element, true)
    .replace(/\r\n?/g, '\n')
    .replace(/^(?:[ \t]*\n)+/, '')
    .replace(/\s+$/, '');
  if (text.trim() === '') return [];
  if (chrome) return [draft(chrome, text.replace(/\s+/g, ' ').trim())];
  if (
    !isMarkedAsCode(element) &&
    text.length >= PROSE_MIN_CHARS &&
    codeDensity(text) < PROSE_MAX_CODE_DENSITY
  ) {
    return partitionPlainText(text);
  }
  return [draft('CodeSnippet', text)];
}
