import { posix } from 'node:path';
import { type ChildNode, type Element, isTag } from 'domhandler';
import { parseDocument } from 'htmlparser2';
import { ServiceError } from '../../errors.js';
import { decodeMarkup } from '../html/decode-markup.js';
import type { ZipArchive } from '../ooxml/zip-archive.js';

/**
 * The EPUB package: META-INF/container.xml names the OPF file; the OPF's manifest maps ids to files and
 * its spine lists the reading order. Names are matched without namespace prefixes (opf:item and item
 * both occur in the wild).
 */

export interface ManifestItem {
  id: string;
  /** Path inside the zip, resolved against the OPF's folder. */
  path: string;
  mediaType: string;
  properties: string;
}

export interface EpubPackage {
  /** Spine documents in reading order. */
  spine: ManifestItem[];
  manifest: Map<string, ManifestItem>;
  /** dc:language of the book, when given. */
  language: string | undefined;
}

const CONTENT_TYPES = new Set(['application/xhtml+xml', 'text/html', 'application/xml', 'text/xml']);

function localName(element: Element): string {
  const name = element.name.toLowerCase();
  const colon = name.lastIndexOf(':');
  return colon === -1 ? name : name.slice(colon + 1);
}

function elementsNamed(roots: ChildNode[], name: string): Element[] {
  const found: Element[] = [];
  const stack = [...roots].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!isTag(node)) continue;
    if (localName(node) === name) found.push(node);
    for (let index = node.children.length - 1; index >= 0; index--) stack.push(node.children[index]!);
  }
  return found;
}

function textOf(element: Element): string {
  return element.children
    .map((child) => ('data' in child && typeof child.data === 'string' ? child.data : ''))
    .join('')
    .trim();
}

function parseXml(archive: ZipArchive, path: string): ChildNode[] {
  const bytes = archive.read(path);
  if (!bytes) throw new ServiceError('corrupt_document', `The EPUB has no ${path}.`);
  return parseDocument(decodeMarkup(bytes).text, { xmlMode: true }).children;
}

/** Resolve an href from a file in the zip: relative, percent-encoded, maybe with a #fragment. */
export function resolveHref(fromFile: string, href: string): string {
  let decoded = href.split('#')[0]!;
  try {
    decoded = decodeURIComponent(decoded);
  } catch {
    // keep it as written
  }
  return posix.normalize(posix.join(posix.dirname(fromFile), decoded)).replace(/^(\.\.\/)+|^\.\//, '');
}

function findOpfPath(archive: ZipArchive): string {
  if (archive.has('META-INF/container.xml')) {
    const rootfiles = elementsNamed(parseXml(archive, 'META-INF/container.xml'), 'rootfile');
    const opf = rootfiles.find((rootfile) => rootfile.attribs['full-path'])?.attribs['full-path'];
    if (opf && archive.has(opf)) return opf;
  }
  // Some generators forget container.xml or point it nowhere: the package file is the one .opf.
  const fallback = archive.names().find((name) => name.toLowerCase().endsWith('.opf'));
  if (!fallback) throw new ServiceError('corrupt_document', 'The EPUB has no package (.opf) file.');
  return fallback;
}

export function readPackage(archive: ZipArchive): EpubPackage {
  const opfPath = findOpfPath(archive);
  const opf = parseXml(archive, opfPath);
  const manifest = new Map<string, ManifestItem>();
  for (const item of elementsNamed(opf, 'item')) {
    const { id, href } = item.attribs;
    if (!id || !href) continue;
    manifest.set(id, {
      id,
      path: resolveHref(opfPath, href),
      mediaType: (item.attribs['media-type'] ?? '').toLowerCase(),
      properties: item.attribs.properties ?? '',
    });
  }
  let spine = elementsNamed(opf, 'itemref')
    .map((itemref) => manifest.get(itemref.attribs.idref ?? ''))
    .filter((item): item is ManifestItem => item !== undefined && CONTENT_TYPES.has(item.mediaType));
  // Without a usable spine, the manifest's documents in their listed order are the best reading order.
  if (spine.length === 0) spine = [...manifest.values()].filter((item) => CONTENT_TYPES.has(item.mediaType));
  if (spine.length === 0)
    throw new ServiceError('corrupt_document', 'The EPUB package lists no content documents.');
  const languageElement = elementsNamed(opf, 'language')[0];
  return { spine, manifest, language: languageElement ? textOf(languageElement) || undefined : undefined };
}

/** Paths that META-INF/encryption.xml says are encrypted (DRM); font obfuscation is not content. */
export function encryptedPaths(archive: ZipArchive): Set<string> {
  if (!archive.has('META-INF/encryption.xml')) return new Set();
  const references = elementsNamed(parseXml(archive, 'META-INF/encryption.xml'), 'cipherreference');
  return new Set(
    references
      .map((reference) => reference.attribs.URI ?? reference.attribs.uri)
      .filter((uri): uri is string => uri !== undefined)
      .map((uri) => resolveHref('', uri)),
  );
}
