/**
 * A guard against hostile nesting. htmlparser2 keeps its open-element stack with Array.unshift, so each
 * tag costs time proportional to the current depth: 100 000 nested <div>s take minutes. No real document
 * nests more than a few hundred levels, so tags that would open deeper than MAX_NESTING (and their
 * closing tags) are removed before parsing; their text stays. Documents within the limit are returned
 * unchanged after one linear scan.
 */

export const MAX_NESTING = 2000;

interface TagToken {
  start: number;
  end: number;
  name: string;
  closing: boolean;
  selfClosed: boolean;
}

function isLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

function isNameChar(code: number): boolean {
  // letters, digits, : . - _
  return isLetter(code) || (code >= 48 && code <= 58) || code === 46 || code === 45 || code === 95;
}

/** Start and end tags, found with indexOf rather than a regex: this runs over every document. */
function* tags(markup: string): Generator<TagToken> {
  let at = markup.indexOf('<');
  while (at !== -1) {
    let cursor = at + 1;
    const closing = markup.charCodeAt(cursor) === 47;
    if (closing) cursor++;
    if (!isLetter(markup.charCodeAt(cursor))) {
      at = markup.indexOf('<', at + 1);
      continue;
    }
    const nameStart = cursor;
    while (cursor < markup.length && isNameChar(markup.charCodeAt(cursor))) cursor++;
    const end = markup.indexOf('>', cursor);
    if (end === -1) return;
    yield {
      start: at,
      end: end + 1,
      name: markup.slice(nameStart, cursor),
      closing,
      selfClosed: markup.charCodeAt(end - 1) === 47,
    };
    at = markup.indexOf('<', end + 1);
  }
}

const VOID_ELEMENTS = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
  'basefont',
  'frame',
  'isindex',
  'keygen',
]);

/** Elements an HTML parser closes by itself when a sibling opens: they do not deepen the tree. */
const SELF_CLOSING_SIBLINGS = new Set(['p', 'li', 'dt', 'dd', 'tr', 'td', 'th', 'option', 'optgroup']);

function opensLevel(name: string, selfClosed: boolean, html: boolean): boolean {
  if (selfClosed) return false;
  if (!html) return true;
  const lower = name.toLowerCase();
  return !VOID_ELEMENTS.has(lower) && !SELF_CLOSING_SIBLINGS.has(lower);
}

function closesLevel(name: string, html: boolean): boolean {
  if (!html) return true;
  const lower = name.toLowerCase();
  return !VOID_ELEMENTS.has(lower) && !SELF_CLOSING_SIBLINGS.has(lower);
}

/** Whether the estimated nesting passes `limit` (close tags without an open are ignored). */
function nestsDeeperThan(markup: string, html: boolean, limit: number): boolean {
  let depth = 0;
  for (const tag of tags(markup)) {
    if (tag.closing) {
      if (closesLevel(tag.name, html) && depth > 0) depth--;
    } else if (opensLevel(tag.name, tag.selfClosed, html)) {
      depth++;
      if (depth > limit) return true;
    }
  }
  return false;
}

/** `markup` with tags deeper than `limit` removed (unchanged when it never nests that deep). */
export function limitNesting(markup: string, options: { html: boolean; limit?: number }): string {
  const limit = options.limit ?? MAX_NESTING;
  if (markup.length < limit * 3 || !nestsDeeperThan(markup, options.html, limit)) return markup;
  const parts: string[] = [];
  let depth = 0;
  let copiedUpTo = 0;
  for (const tag of tags(markup)) {
    let drop = false;
    if (tag.closing) {
      if (closesLevel(tag.name, options.html) && depth > 0) {
        drop = depth > limit;
        depth--;
      }
    } else if (opensLevel(tag.name, tag.selfClosed, options.html)) {
      depth++;
      drop = depth > limit;
    }
    if (drop) {
      parts.push(markup.slice(copiedUpTo, tag.start));
      copiedUpTo = tag.end;
    }
  }
  parts.push(markup.slice(copiedUpTo));
  return parts.join('');
}
