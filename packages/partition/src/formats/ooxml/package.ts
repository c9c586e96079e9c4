import { ServiceError } from '../../errors.js';
import type { PartitionLimits } from '../../pipeline/limits.js';
import { children, parseXml, type XmlElement } from './xml.js';
import { ZipArchive } from './zip-archive.js';

/**
 * Opening office packages (docx, pptx, xlsx, odt): the zip container with limits, encrypted-file
 * detection, relationship parts and part paths. Shared by all office formats.
 */

const CFB_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

export function isCompoundFile(data: Uint8Array): boolean {
  return data.length >= 8 && CFB_MAGIC.every((byte, index) => data[index] === byte);
}

/**
 * A password-protected docx/pptx/xlsx is not a zip: Office wraps the encrypted package in an OLE
 * compound file with `EncryptionInfo` and `EncryptedPackage` streams (names stored as UTF-16LE).
 */
export function isEncryptedOoxml(data: Uint8Array): boolean {
  if (!isCompoundFile(data)) return false;
  const buffer = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  return buffer.includes(Buffer.from('EncryptedPackage', 'utf16le'));
}

/** Open the zip of an office document, turning every kind of unreadable input into a typed error. */
export function openOfficeZip(data: Uint8Array, limits: PartitionLimits, formatName: string): ZipArchive {
  if (data.length === 0) throw new ServiceError('corrupt_document', `The ${formatName} file is empty.`);
  if (isEncryptedOoxml(data)) {
    throw new ServiceError('encrypted_document', `The ${formatName} file is password-protected.`);
  }
  if (data[0] !== 0x50 || data[1] !== 0x4b) {
    throw new ServiceError('corrupt_document', `The ${formatName} file is not a zip package.`);
  }
  return ZipArchive.open(data, limits.maxDecompressedBytes);
}

export function readXml(zip: ZipArchive, partPath: string): XmlElement | undefined {
  const text = zip.readText(partPath);
  return text === undefined ? undefined : parseXml(text);
}

export function requireXml(zip: ZipArchive, partPath: string, formatName: string): XmlElement {
  const root = readXml(zip, partPath);
  if (!root) {
    throw new ServiceError('corrupt_document', `The ${formatName} package has no ${partPath} part.`);
  }
  return root;
}

export interface Relationship {
  id: string;
  type: string;
  /** Absolute part path inside the package, or the URL itself for external targets. */
  target: string;
  external: boolean;
}

/** `word/document.xml` → `word/_rels/document.xml.rels`. */
function relationshipsPath(partPath: string): string {
  const slash = partPath.lastIndexOf('/');
  return `${partPath.slice(0, slash + 1)}_rels/${partPath.slice(slash + 1)}.rels`;
}

/** Resolve a relationship target relative to the folder of its source part. */
export function resolvePartPath(sourcePart: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const segments = sourcePart.split('/').slice(0, -1);
  for (const segment of target.split('/')) {
    if (segment === '..') segments.pop();
    else if (segment !== '.' && segment !== '') segments.push(segment);
  }
  return segments.join('/');
}

/** The relationships of a part (or of the package with partPath ''), keyed by id. */
export function readRelationships(zip: ZipArchive, partPath: string): Map<string, Relationship> {
  const relationships = new Map<string, Relationship>();
  const root = readXml(zip, partPath === '' ? '_rels/.rels' : relationshipsPath(partPath));
  const list = root ? children(root, 'Relationships')[0] : undefined;
  for (const rel of children(list, 'Relationship')) {
    const id = rel.attrs.Id;
    const target = rel.attrs.Target;
    if (!id || target === undefined) continue;
    const external = rel.attrs.TargetMode === 'External';
    relationships.set(id, {
      id,
      type: rel.attrs.Type ?? '',
      target: external ? target : resolvePartPath(partPath === '' ? '' : partPath, target),
      external,
    });
  }
  return relationships;
}

/** The package's main part (word/document.xml, ppt/presentation.xml, xl/workbook.xml). */
export function mainDocumentPart(zip: ZipArchive, fallback: string): string {
  for (const rel of readRelationships(zip, '').values()) {
    if (rel.type.endsWith('/officeDocument') && zip.has(rel.target)) return rel.target;
  }
  return fallback;
}

const IMAGE_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  jpe: 'image/jpeg',
  gif: 'image/gif',
  bmp: 'image/bmp',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  emf: 'image/emf',
  wmf: 'image/wmf',
};

export function imageMimeType(partPath: string): string {
  const extension = partPath.split('.').pop()?.toLowerCase() ?? '';
  return IMAGE_TYPES[extension] ?? 'application/octet-stream';
}

/** Whether the caller asked for Image payloads (the pipeline drops them otherwise, so skip the work). */
export function wantsImagePayloads(extractImageBlockTypes: readonly string[]): boolean {
  return extractImageBlockTypes.some((type) => type.toLowerCase() === 'image');
}
