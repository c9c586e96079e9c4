import type { Element } from '../elements/element.js';
import { TABLE_TYPES } from '../elements/element-types.js';
import { chunkTextOf } from './element-text.js';
import { ELEMENT_SEPARATOR, type ResolvedChunkingOptions } from './options.js';

/**
 * Pre-chunking: the one grouping pass all strategies share. It decides which elements end up together;
 * assembling (assemble.ts) then turns each group into output elements, splitting what is too long.
 *
 * Rules, in order:
 * - A Table (or TableChunk) is always a group of its own: tables are never combined with text.
 * - An element without text (PageBreak, an empty Image...) adds nothing to any chunk. It joins the group
 *   being built (so it is kept in that chunk's orig_elements) or, at the start, the next group.
 * - The strategy may declare a boundary before an element (a Title, a page change, a change of topic).
 * - Otherwise an element joins the current group while the group is shorter than the soft limit and the
 *   joined text (texts separated by a blank line) stays within the fill limit (the hard limit, less the
 *   room overlap_all needs). An element that fits in no group gets its own and is split later.
 */

export interface TextPreChunk {
  kind: 'text';
  /** Every element of the group, in order, including elements without text. */
  elements: Element[];
  /** The elements that have text, and their normalised texts (parallel lists). */
  textElements: Element[];
  texts: string[];
  /** Length of `texts` joined with the separator. */
  length: number;
  /** page_number of the first element that has one. */
  page: number | undefined;
}

export interface TablePreChunk {
  kind: 'table';
  table: Element;
  /** The table and any elements without text attached to it. */
  elements: Element[];
  page: number | undefined;
}

export type PreChunk = TextPreChunk | TablePreChunk;

/** A strategy's say in grouping: true when `element` must not join `current`. */
export type BoundaryRule = (element: Element, index: number, current: TextPreChunk) => boolean;

export interface PreChunkLimits {
  softMax: number;
  fillLimit: number;
}

export function limitsOf(options: ResolvedChunkingOptions): PreChunkLimits {
  return { softMax: options.softMax, fillLimit: options.fillLimit };
}

export function isTable(element: Element): boolean {
  return TABLE_TYPES.has(element.type);
}

export function buildPreChunks(
  elements: readonly Element[],
  limits: PreChunkLimits,
  isBoundary: BoundaryRule = () => false,
): PreChunk[] {
  const preChunks: PreChunk[] = [];
  let current: PreChunk | undefined;
  // -- elements without text seen before any group exists --
  let pending: Element[] = [];

  const open = (preChunk: PreChunk): void => {
    preChunk.elements.unshift(...pending);
    pending = [];
    preChunks.push(preChunk);
    current = preChunk;
  };

  elements.forEach((element, index) => {
    if (isTable(element)) {
      open({ kind: 'table', table: element, elements: [element], page: element.metadata.page_number });
      return;
    }
    const text = chunkTextOf(element);
    if (text === '') {
      if (current) current.elements.push(element);
      else pending.push(element);
      return;
    }
    if (current?.kind === 'text' && fits(current, text, limits) && !isBoundary(element, index, current)) {
      current.elements.push(element);
      current.length += ELEMENT_SEPARATOR.length + text.length;
      current.textElements.push(element);
      current.texts.push(text);
      current.page ??= element.metadata.page_number;
      return;
    }
    open({
      kind: 'text',
      elements: [element],
      textElements: [element],
      texts: [text],
      length: text.length,
      page: element.metadata.page_number,
    });
  });
  // -- a list of elements without text makes no chunk at all --
  return preChunks;
}

function fits(current: TextPreChunk, text: string, limits: PreChunkLimits): boolean {
  if (current.length >= limits.softMax) return false;
  return current.length + ELEMENT_SEPARATOR.length + text.length <= limits.fillLimit;
}

/** True when `element` is on another page than `current`; elements without a page_number never are. */
export function changesPage(element: Element, current: PreChunk): boolean {
  const page = element.metadata.page_number;
  return page !== undefined && current.page !== undefined && page !== current.page;
}

/** Join two text groups (by_title's combining of small sections). */
export function mergeTextPreChunks(first: TextPreChunk, second: TextPreChunk): TextPreChunk {
  return {
    kind: 'text',
    elements: [...first.elements, ...second.elements],
    textElements: [...first.textElements, ...second.textElements],
    texts: [...first.texts, ...second.texts],
    length: first.length + ELEMENT_SEPARATOR.length + second.length,
    page: first.page ?? second.page,
  };
}
