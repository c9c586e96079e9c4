import { type Element, elementsFromBase64Gzip, elementsToBase64Gzip } from '@docsvc/partition';
import { IngestSetupError } from './errors.js';

export interface MetadataFilter {
  exclude?: readonly string[] | undefined;
  include?: readonly string[] | undefined;
}

/**
 * metadata_exclude / metadata_include. A name is a metadata field (`image_base64`) or a dotted path within
 * metadata (`data_source.date_processed`); a leading `metadata.` is accepted too. Include keeps only the
 * named fields (and the parents of named paths). The filter also applies to the original elements a chunk
 * keeps in `orig_elements`: excluding image_base64 must not leave it inside them (SPEC 7.2: that is how
 * rows outgrow a destination's field limit).
 */
export function validateMetadataFilter(filter: MetadataFilter): void {
  if (filter.exclude?.length && filter.include?.length) {
    throw new IngestSetupError('metadata_exclude and metadata_include cannot be used together');
  }
}

function toPath(name: string): string[] {
  return name
    .replace(/^metadata\./, '')
    .split('.')
    .filter(Boolean);
}

export function applyMetadataFilter(elements: Element[], filter: MetadataFilter): Element[] {
  if (filter.exclude?.length) {
    const paths = filter.exclude.map(toPath);
    for (const element of elements) for (const path of paths) deletePath(element.metadata, path);
  } else if (filter.include?.length) {
    const paths = filter.include.map(toPath);
    for (const element of elements) element.metadata = pickPaths(element.metadata, paths);
  } else {
    return elements;
  }
  for (const element of elements) {
    const originals = element.metadata.orig_elements;
    if (typeof originals === 'string') {
      element.metadata.orig_elements = elementsToBase64Gzip(
        applyMetadataFilter(elementsFromBase64Gzip(originals), filter),
      );
    }
  }
  return elements;
}

function deletePath(object: Record<string, unknown>, path: string[]): void {
  const [head, ...rest] = path;
  if (head === undefined) return;
  if (rest.length === 0) {
    delete object[head];
    return;
  }
  const child = object[head];
  if (child && typeof child === 'object' && !Array.isArray(child))
    deletePath(child as Record<string, unknown>, rest);
}

function pickPaths(object: Record<string, unknown>, paths: string[][]): Element['metadata'] {
  const result: Record<string, unknown> = {};
  for (const [head, ...rest] of paths) {
    if (head === undefined || !(head in object)) continue;
    if (rest.length === 0) {
      result[head] = object[head];
      continue;
    }
    const child = object[head];
    if (!child || typeof child !== 'object' || Array.isArray(child)) continue;
    const picked = pickPaths(child as Record<string, unknown>, [rest]);
    result[head] = { ...((result[head] as object | undefined) ?? {}), ...picked };
  }
  return result;
}
