import { createHash, randomUUID } from 'node:crypto';
import type { Element } from './element.js';

/**
 * Default element id: the SHA-256 hex digest (64 characters) of the UTF-8 element text.
 * Deterministic across runs and machines; equal texts give equal ids (documented in docs/elements.md).
 * Destinations derive their record keys from (element_id, record_id), so equal ids never collide there.
 */
export function hashElementId(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Random UUID v4, for `unique_element_ids`. */
export function uniqueElementId(): string {
  return randomUUID();
}

export interface IdOptions {
  unique_element_ids?: boolean;
}

/**
 * Give every element a fresh id and rewrite `parent_id` links to the new ids.
 * Links are resolved by position first, so they stay right even when several elements share a text.
 */
export function assignElementIds(elements: Element[], options: IdOptions = {}): Element[] {
  const oldIdToIndex = new Map<string, number>();
  elements.forEach((element, index) => {
    if (element.element_id && !oldIdToIndex.has(element.element_id))
      oldIdToIndex.set(element.element_id, index);
  });
  const parentIndexes = elements.map((element) => {
    const parent = element.metadata.parent_id;
    return parent === undefined ? undefined : oldIdToIndex.get(parent);
  });
  for (const element of elements) {
    element.element_id = options.unique_element_ids ? uniqueElementId() : hashElementId(element.text);
  }
  elements.forEach((element, index) => {
    const parentIndex = parentIndexes[index];
    if (parentIndex === undefined) delete element.metadata.parent_id;
    else element.metadata.parent_id = elements[parentIndex]!.element_id;
  });
  return elements;
}
