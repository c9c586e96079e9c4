import { fileTypeFromBuffer } from 'file-type';
import { ServiceError } from '../errors.js';
import { decodeText, looksLikeText } from '../text/decode.js';
import { type FileTypeInfo, fileTypeByExtension, fileTypeById, fileTypeByMime } from './file-types.js';
import { classifyOleContainer } from './ole.js';
import { classifyZipContainer } from './zip.js';

export interface DetectInput {
  data: Uint8Array;
  filename?: string | undefined;
  /** Explicit MIME type: overrides content and extension. */
  content_type?: string | undefined;
}

/**
 * Content first (magic bytes; zip and OLE containers opened to tell their formats apart; text sniffed),
 * extension second; an explicit content_type overrides both. Throws `unsupported_file_type` naming what
 * was detected when the service cannot partition it.
 */
export async function detectFileType(input: DetectInput): Promise<FileTypeInfo> {
  const type = await detect(input);
  if (!type.supported) {
    throw new ServiceError('unsupported_file_type', `File type ${type.mime} is not supported.`);
  }
  return type;
}

async function detect({ data, filename, content_type }: DetectInput): Promise<FileTypeInfo> {
  if (content_type) {
    const declared = fileTypeByMime(content_type);
    if (!declared)
      throw new ServiceError('unsupported_file_type', `File type ${content_type} is not supported.`);
    return declared;
  }
  const byExtension = fileTypeByExtension(filename);
  if (data.length === 0) return byExtension ?? fileTypeById('txt');

  const magic = await fileTypeFromBuffer(data);
  if (magic) {
    if (
      magic.mime === 'application/zip' ||
      magic.ext === 'docx' ||
      magic.ext === 'xlsx' ||
      magic.ext === 'pptx' ||
      magic.ext === 'epub' ||
      magic.ext === 'odt'
    ) {
      return classifyZipContainer(data) ?? fileTypeByMime(magic.mime) ?? fileTypeById('zip');
    }
    if (magic.ext === 'cfb') return classifyOleContainer(data, byExtension);
    if (magic.ext === 'xml') return sniffText(data, byExtension);
    const known = fileTypeByMime(magic.mime) ?? fileTypeByExtension(`x.${magic.ext}`);
    if (known) return known;
    return { id: magic.ext, mime: magic.mime, extensions: [magic.ext], supported: false };
  }
  if (looksLikeText(data)) return sniffText(data, byExtension);
  if (byExtension) return byExtension;
  return { id: 'bin', mime: 'application/octet-stream', extensions: [], supported: false };
}

const EMAIL_HEADER =
  /^(received|return-path|from|to|subject|date|message-id|mime-version|delivered-to|x-[\w-]+|reply-to|cc|content-type):[ \t]*\S/i;

/** Tell the text formats apart from a decoded sample. */
function sniffText(data: Uint8Array, byExtension: FileTypeInfo | undefined): FileTypeInfo {
  const sample = decodeText(data.subarray(0, 64 * 1024)).text.replace(/^\uFEFF/, '');
  const head = sample.trimStart().slice(0, 2048).toLowerCase();

  if (head.startsWith('<')) {
    if (/<!doctype html|<html[\s>]/.test(head)) return fileTypeById('html');
    if (head.startsWith('<?xml')) {
      if (/<html[\s>]/.test(sample.slice(0, 4096).toLowerCase())) return fileTypeById('html');
      return byExtension?.id === 'xsl' ? byExtension : fileTypeById('xml');
    }
    if (/<(body|div|p|table|head|span|h[1-6]|ul|ol|br)[\s>/]/.test(head)) return fileTypeById('html');
    if (byExtension && (byExtension.id === 'html' || byExtension.id === 'xml')) return byExtension;
    return fileTypeById('xml');
  }
  if (
    byExtension &&
    ['json', 'ndjson', 'csv', 'tsv', 'md', 'rst', 'org', 'html', 'xml', 'eml', 'yaml', 'xsl', 'rtf'].includes(
      byExtension.id,
    )
  ) {
    return byExtension;
  }
  if (head.startsWith('{') || head.startsWith('[')) {
    const json = sniffJson(data);
    if (json) return json;
  }
  if (looksLikeEmail(sample)) return fileTypeById('eml');
  if (head.startsWith('{\\rtf')) return fileTypeById('rtf');
  return byExtension?.supported ? byExtension : fileTypeById('txt');
}

function sniffJson(data: Uint8Array): FileTypeInfo | undefined {
  const text = decodeText(data).text.trim();
  try {
    JSON.parse(text);
    return fileTypeById('json');
  } catch {
    const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '');
    if (lines.length > 1 && lines.every((line) => isJsonObjectLine(line))) return fileTypeById('ndjson');
    return undefined;
  }
}

function isJsonObjectLine(line: string): boolean {
  try {
    const value = JSON.parse(line) as unknown;
    return value !== null && typeof value === 'object';
  } catch {
    return false;
  }
}

/** At least two RFC 822 header lines before the first blank line, and one of them a core header. */
function looksLikeEmail(sample: string): boolean {
  const headerBlock = sample.split(/\r?\n\r?\n/, 1)[0] ?? '';
  const lines = headerBlock.split(/\r?\n/).filter((line) => !/^[ \t]/.test(line));
  if (lines.length < 2) return false;
  const headers = lines.filter((line) => EMAIL_HEADER.test(line));
  const core = headers.some((line) => /^(from|to|subject|message-id|received|mime-version):/i.test(line));
  return core && headers.length >= 2 && headers.length >= lines.length * 0.8;
}
