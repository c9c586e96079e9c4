import type { Element } from './element.js';
import type { ElementType } from './element-types.js';

/** Elements outside the reading flow: they neither have a parent nor become one. */
const OUT_OF_FLOW: ReadonlySet<ElementType> = new Set(['Header', 'Footer', 'PageNumber', 'PageBreak']);

/** List items rank below every heading, whatever their depth. */
const LIST_BASE_LEVEL = 1_000;

/**
 * Set `metadata.parent_id` from the document structure:
 * - a Title's parent is the nearest earlier Title of a smaller category_depth;
 * - a ListItem's parent is the nearest earlier ListItem of a smaller depth in the same list, else the section Title;
 * - any other element's parent is the current section Title (a list ends at the first non-list element).
 * Elements must already carry their final element_ids. Existing parent_ids (set by a partitioner) are kept.
 */
export function assignHierarchy(elements: Element[]): Element[] {
  const stack: { level: number; id: string; isList: boolean }[] = [];
  for (const element of elements) {
    if (OUT_OF_FLOW.has(element.type)) continue;
    const depth = element.metadata.category_depth ?? 0;
    const isTitle = element.type === 'Title';
    const isList = element.type === 'ListItem';
    if (!isList) while (stack.length > 0 && stack.at(-1)!.isList) stack.pop();
    const level = isTitle ? depth : isList ? LIST_BASE_LEVEL + depth : Number.POSITIVE_INFINITY;
    while (stack.length > 0 && stack.at(-1)!.level >= level) stack.pop();
    const parent = stack.at(-1);
    if (parent && element.metadata.parent_id === undefined) element.metadata.parent_id = parent.id;
    if (isTitle || isList) stack.push({ level, id: element.element_id, isList });
  }
  return elements;
}
