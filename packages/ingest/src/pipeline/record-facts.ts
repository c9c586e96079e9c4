import {
  type DataSource,
  type Element,
  elementsFromBase64Gzip,
  elementsToBase64Gzip,
} from '@docsvc/partition';

/**
 * Facts about a record that are not its content: where it lives and when it was modified. Cached step
 * outputs are keyed by content, so a file that was only touched (new mtime, same bytes) reuses them;
 * these facts are then brought up to date on the reused elements instead of recomputing everything.
 */

/** A cached step output: the elements and the record's modification time they were made with. */
export interface CachedStepOutput {
  last_modified: string | null;
  elements: Element[];
}

/**
 * Move `metadata.last_modified` from the time the cached elements were made with to the record's current
 * one. Only values equal to the old time change: a format's own date (an e-mail's Date header) stays.
 * Chunks keep their original elements compressed in `orig_elements`; those are updated the same way.
 */
export function rebaseLastModified(
  elements: Element[],
  from: string | null | undefined,
  to: string | undefined,
): Element[] {
  if (!from || !to || from === to) return elements;
  const rebase = (list: Element[]): boolean => {
    let changed = false;
    for (const element of list) {
      if (element.metadata.last_modified === from) {
        element.metadata.last_modified = to;
        changed = true;
      }
      if (typeof element.metadata.orig_elements === 'string') {
        const originals = elementsFromBase64Gzip(element.metadata.orig_elements);
        if (rebase(originals)) {
          element.metadata.orig_elements = elementsToBase64Gzip(originals);
          changed = true;
        }
      }
    }
    return changed;
  };
  rebase(elements);
  return elements;
}

/**
 * The record's `data_source`, with `date_processed` (SPEC 2.6) set to now unless the source gave one.
 * One object per record: metadata filters edit it in place and must not reach the source's descriptor.
 */
export function dataSourceOf(source: DataSource, now = new Date()): DataSource {
  return { ...source, date_processed: source.date_processed ?? now.toISOString() };
}

/**
 * The partition endpoint leaves file_directory and last_modified out of its answer (they would describe
 * its temporary copy). Fill them from the record, as local partitioning does, so both routes give the
 * same metadata; values the answer carries (an e-mail's own date) are kept.
 */
export function fillDocumentFacts(
  elements: Element[],
  facts: { file_directory?: string | undefined; last_modified?: string | undefined },
): Element[] {
  for (const { metadata } of elements) {
    if (metadata.file_directory === undefined && facts.file_directory !== undefined)
      metadata.file_directory = facts.file_directory;
    if (metadata.last_modified === undefined && facts.last_modified !== undefined)
      metadata.last_modified = facts.last_modified;
  }
  return elements;
}
