import { Parser } from 'htmlparser2';

/**
 * A small, fast XML tree for the office formats (OOXML, ODF). htmlparser2 in XML mode does the parsing;
 * the tree keeps qualified names as written (`w:p`, `a:t`, `text:h`), attributes, and children in order.
 * It is deliberately tiny: the partitioners walk it by hand, which is faster than a DOM with selectors.
 */

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
}

export type XmlNode = XmlElement | string;

/**
 * Deepest element kept in the tree. Real documents stay far below (a table nested in a table adds three
 * levels); hostile ones nest thousands deep, and every reader walks the tree recursively. Elements below
 * this depth are dropped and their text goes to the deepest kept element (as text nodes).
 */
export const MAX_XML_DEPTH = 256;

export function parseXml(xml: string): XmlElement {
  const root: XmlElement = { name: '#document', attrs: {}, children: [] };
  const stack: XmlElement[] = [root];
  let dropped = 0; // open elements below MAX_XML_DEPTH
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (stack.length > MAX_XML_DEPTH) {
          dropped++;
          return;
        }
        const element: XmlElement = { name, attrs, children: [] };
        stack.at(-1)!.children.push(element);
        stack.push(element);
      },
      onclosetag() {
        if (dropped > 0) dropped--;
        else if (stack.length > 1) stack.pop();
      },
      ontext(text) {
        const children = stack.at(-1)!.children;
        const last = children.at(-1);
        // htmlparser2 may deliver one text node in several pieces; keep them together.
        if (typeof last === 'string') children[children.length - 1] = last + text;
        else children.push(text);
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.end(xml);
  return root;
}

export function isElement(node: XmlNode | undefined): node is XmlElement {
  return typeof node === 'object';
}

/** The first child element with this name. */
export function child(element: XmlElement | undefined, name: string): XmlElement | undefined {
  if (!element) return undefined;
  for (const node of element.children) if (typeof node === 'object' && node.name === name) return node;
  return undefined;
}

/** All child elements with this name (all child elements when no name is given). */
export function children(element: XmlElement | undefined, name?: string): XmlElement[] {
  if (!element) return [];
  const found: XmlElement[] = [];
  for (const node of element.children) {
    if (typeof node === 'object' && (name === undefined || node.name === name)) found.push(node);
  }
  return found;
}

/** Follow a path of child names: `path(root, 'w:document', 'w:body')`. */
export function path(element: XmlElement | undefined, ...names: string[]): XmlElement | undefined {
  let current = element;
  for (const name of names) current = child(current, name);
  return current;
}

/** Every descendant element with this name, in document order. */
export function descendants(element: XmlElement, name: string, found: XmlElement[] = []): XmlElement[] {
  for (const node of element.children) {
    if (typeof node !== 'object') continue;
    if (node.name === name) found.push(node);
    descendants(node, name, found);
  }
  return found;
}

/** The first descendant element with this name (depth first). */
export function findFirst(element: XmlElement, name: string): XmlElement | undefined {
  for (const node of element.children) {
    if (typeof node !== 'object') continue;
    if (node.name === name) return node;
    const inner = findFirst(node, name);
    if (inner) return inner;
  }
  return undefined;
}

/** All text below an element, concatenated. */
export function textContent(element: XmlElement): string {
  let text = '';
  for (const node of element.children) text += typeof node === 'string' ? node : textContent(node);
  return text;
}

/** The local part of a qualified name: `w:p` → `p`. */
export function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
}

/** OOXML on/off properties: present means on unless the value says otherwise. */
export function isOn(element: XmlElement | undefined, valueAttribute = 'w:val'): boolean {
  if (!element) return false;
  const value = element.attrs[valueAttribute];
  return value === undefined || !['0', 'false', 'off', 'none'].includes(value);
}
