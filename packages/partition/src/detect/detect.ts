import { fileTypeFromBuffer } from 'file-type';
import { ServiceError } from '../errors.js';
import { detectBom, looksLikeText } from '../text/decode.js';
import { type FileTypeInfo, fileTypeByExtension, fileTypeById, fileTypeByMime } from './file-types.js';
import { classifyOleContainer } from './ole.js';
import { sniffText, TEXT_TYPE_IDS } from './sniff-text.js';
import { classifyZipContainer } from './zip.js';

export interface DetectInput {
  data: Uint8Array;
  filename?: string | undefined;
  /** Explicit MIME type: overrides content and extension (generic ones such as application/octet-stream are ignored). */
  content_type?: string | undefined;
  /** The caller's `encoding` option: text is sniffed in it (when it can read the bytes). */
  encoding?: string | undefined;
}

/**
 * An explicit content_type decides; otherwise content first (byte-order marks, magic bytes, zip and OLE
 * containers opened to tell their formats apart, text sniffed), extension second. Throws
 * `unsupported_file_type` naming what was detected when the service cannot partition it.
 */
export async function detectFileType(input: DetectInput): Promise<FileTypeInfo> {
  const type = await detect(input);
  if (!type.supported) {
    throw new ServiceError('unsupported_file_type', `File type ${type.mime} is not supported.`);
  }
  return type;
}

/**
 * Content types that say nothing about the content: what browsers and HTTP clients send for "some file".
 * They fall through to detection instead of overriding it.
 */
const GENERIC_CONTENT_TYPES = new Set([
  'application/octet-stream',
  'binary/octet-stream',
  'application/unknown',
  'application/binary',
  'application/x-unknown',
  'application/force-download',
]);

/** Magic signatures weak enough to occur in text: an MPEG audio frame sync is just two bytes (0xFF 0xFx). */
const WEAK_MAGIC = new Set(['mp3', 'mp2', 'mp1', 'aac']);

async function detect({ data, filename, content_type, encoding }: DetectInput): Promise<FileTypeInfo> {
  const declared = content_type?.split(';')[0]?.trim().toLowerCase();
  if (declared && !GENERIC_CONTENT_TYPES.has(declared)) {
    const type = fileTypeByMime(declared);
    if (!type) throw new ServiceError('unsupported_file_type', `File type ${declared} is not supported.`);
    return type;
  }
  const byExtension = fileTypeByExtension(filename);
  if (data.length === 0) return emptyFileType(byExtension);
  // A byte-order mark means text, whatever two-byte "signature" it happens to resemble.
  if (detectBom(data)) return sniffText(data, byExtension);

  const magic = await fileTypeFromBuffer(data);
  if (magic && !(WEAK_MAGIC.has(magic.ext) && looksLikeText(data))) {
    if (magic.mime === 'application/zip' || ['docx', 'xlsx', 'pptx', 'epub', 'odt'].includes(magic.ext)) {
      return classifyZipContainer(data, byExtension) ?? fileTypeByMime(magic.mime) ?? fileTypeById('zip');
    }
    if (magic.ext === 'cfb') return classifyOleContainer(data, byExtension);
    if (magic.ext === 'xml') return sniffText(data, byExtension, encoding);
    const known = fileTypeByMime(magic.mime) ?? fileTypeByExtension(`x.${magic.ext}`);
    if (known) return known;
    return { id: magic.ext, mime: magic.mime, extensions: [magic.ext], supported: false };
  }
  if (looksLikeText(data, encoding)) return sniffText(data, byExtension, encoding);
  if (byExtension && !TEXT_TYPE_IDS.has(byExtension.id)) return byExtension;
  return { id: 'bin', mime: 'application/octet-stream', extensions: [], supported: false };
}

/**
 * An empty file is an empty text document (no elements) when its name says text or says nothing; a file
 * named as a binary format cannot be empty, and saying so is clearer than that format's parser failing.
 */
function emptyFileType(byExtension: FileTypeInfo | undefined): FileTypeInfo {
  if (!byExtension || TEXT_TYPE_IDS.has(byExtension.id)) return byExtension ?? fileTypeById('txt');
  if (!byExtension.supported) return byExtension;
  throw new ServiceError(
    'corrupt_document',
    `The file is empty (0 bytes), so it is not a valid ${byExtension.mime} document.`,
  );
}
