import { type ChildNode, type Element, isTag, isText } from 'domhandler';

/**
 * Small helpers over the htmlparser2/domhandler tree. Everything here is iterative: documents with
 * tens of thousands of nested elements (hostile or generated) must not overflow the call stack.
 */

/** Never content: their text is code, styling or a fallback for disabled scripting. */
export const DROPPED_TAGS: ReadonlySet<string> = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'head',
  'title',
  'meta',
  'link',
  'svg',
  'canvas',
  'iframe',
  'object',
  'embed',
  'select',
  'datalist',
  'textarea',
  'map',
]);

/** Elements that start and end a block of text; anything not listed (span, font, ix:*...) is inline. */
export const BLOCK_TAGS: ReadonlySet<string> = new Set([
  'html',
  'body',
  'main',
  'article',
  'section',
  'aside',
  'div',
  'p',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'ul',
  'ol',
  'menu',
  'dir',
  'li',
  'dl',
  'dt',
  'dd',
  'blockquote',
  'pre',
  'address',
  'header',
  'footer',
  'nav',
  'figure',
  'figcaption',
  'form',
  'fieldset',
  'legend',
  'details',
  'summary',
  'center',
  'hr',
  'table',
  'caption',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'td',
  'th',
  'hgroup',
  'search',
  'dialog',
  'output',
  'option',
  'optgroup',
]);

export const LIST_TAGS: ReadonlySet<string> = new Set(['ul', 'ol', 'menu', 'dir']);
export const HEADING_LEVEL: Readonly<Record<string, number>> = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6 };

/** Emphasis tags and the tag name reported in metadata.emphasized_text_tags (same as docx: b and i). */
export const EMPHASIS_TAGS: Readonly<Record<string, 'b' | 'i'>> = { b: 'b', strong: 'b', i: 'i', em: 'i' };

export function isElement(node: ChildNode): node is Element {
  return isTag(node);
}

export const isTextNode = isText;

/** Content nobody sees: `hidden`, `display:none`, or inline XBRL's hidden header block. */
export function isHidden(element: Element): boolean {
  if (element.attribs.hidden !== undefined) return true;
  const style = element.attribs.style;
  if (style && /display\s*:\s*none/i.test(style)) return true;
  return element.name === 'ix:header';
}

export function isSkipped(element: Element): boolean {
  return DROPPED_TAGS.has(element.name) || isHidden(element);
}

/**
 * Text of a subtree. With `preserve` (pre, code) whitespace is kept as written and <br> is a newline;
 * otherwise runs of whitespace become one space and block boundaries a space, so cell texts like
 * `<p>a</p><p>b</p>` read "a b". Skipped elements (scripts, hidden content) contribute nothing.
 */
export function textContent(root: Element, preserve = false): string {
  const parts: string[] = [];
  const stack: (ChildNode | string)[] = [...root.children].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (typeof node === 'string') {
      parts.push(node);
      continue;
    }
    if (isTextNode(node)) {
      parts.push(node.data);
    } else if (isElement(node)) {
      if (isSkipped(node)) continue;
      if (node.name === 'br') {
        parts.push('\n');
        continue;
      }
      const isBlock = BLOCK_TAGS.has(node.name);
      if (isBlock && !preserve) stack.push(' ');
      for (let index = node.children.length - 1; index >= 0; index--) stack.push(node.children[index]!);
      if (isBlock && !preserve) parts.push(' ');
    }
  }
  const text = parts.join('');
  return preserve ? text : text.replace(/\s+/g, ' ').trim();
}

/** Descendant elements matching a predicate, in document order, not descending below matches. */
export function findElements(
  root: Element,
  matches: (element: Element) => boolean,
  descendInto: (element: Element) => boolean = () => true,
): Element[] {
  const found: Element[] = [];
  const stack: ChildNode[] = [...root.children].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!isElement(node)) continue;
    if (matches(node)) {
      found.push(node);
      continue;
    }
    if (!descendInto(node)) continue;
    for (let index = node.children.length - 1; index >= 0; index--) stack.push(node.children[index]!);
  }
  return found;
}

/** Whether any descendant element matches (early exit). */
export function hasDescendant(root: Element, matches: (element: Element) => boolean): boolean {
  const stack: ChildNode[] = [...root.children];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!isElement(node)) continue;
    if (matches(node)) return true;
    for (const child of node.children) stack.push(child);
  }
  return false;
}

/** Child elements, skipping text and comments. */
export function childElements(element: Element): Element[] {
  return element.children.filter(isElement);
}

/** Sectioning elements whose <header>/<footer> belong to the content, not to the page. */
export const CONTENT_SECTIONS: ReadonlySet<string> = new Set(['article', 'section', 'main', 'aside']);
/** Containers in which a lone <code> element is a code block rather than words in a sentence. */
export const CODE_BLOCK_PARENTS: ReadonlySet<string> = new Set([
  'body',
  'div',
  'section',
  'article',
  'main',
  'figure',
  'blockquote',
  'details',
]);

/** The row and the <tr> siblings that follow it (whitespace and comments between them allowed). */
export function siblingRows(first: Element): Element[] {
  const siblings = first.parent?.children ?? [first];
  const rows: Element[] = [];
  for (let index = siblings.indexOf(first); index < siblings.length; index++) {
    const node = siblings[index]!;
    if (isElement(node) && node.name === 'tr') rows.push(node);
    else if (isElement(node) || (isTextNode(node) && node.data.trim() !== '')) break;
  }
  return rows;
}

/** Word processors and SEC filings mark emphasis with inline styles rather than <b>/<i>. */
export function styleEmphasis(style: string | undefined): 'b' | 'i' | undefined {
  if (!style) return undefined;
  if (/font-weight\s*:\s*(?:bold|bolder|[6-9]00)\b/i.test(style)) return 'b';
  if (/font-style\s*:\s*italic\b/i.test(style)) return 'i';
  return undefined;
}
