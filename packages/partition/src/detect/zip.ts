import { unzipSync } from 'fflate';
import { type FileTypeInfo, fileTypeById, fileTypeByMime } from './file-types.js';

/**
 * Tell zip-based formats apart by their entry names (docx/pptx/xlsx) or their `mimetype` entry
 * (odt/epub). Only the tiny `mimetype` entry is ever inflated, so a zip bomb costs nothing here.
 *
 * A damaged archive (truncated: no central directory) is named by the entries its local file headers
 * still show, and failing that by a zip-based extension, so that the format's reader reports the
 * damage as `corrupt_document` instead of the file being refused as a plain zip.
 */
export function classifyZipContainer(
  data: Uint8Array,
  byExtension?: FileTypeInfo | undefined,
): FileTypeInfo | undefined {
  const fromExtension = byExtension && ZIP_BASED.has(byExtension.id) ? byExtension : undefined;
  const listing = readCentralListing(data);
  if (listing) return packageType(listing) ?? (isPackage(listing) ? fromExtension : undefined) ?? zip();
  const local = readLocalHeaders(data);
  return packageType(local, true) ?? fromExtension;
}

/** Formats that are zip packages: a damaged one named so is handed to its reader. */
const ZIP_BASED: ReadonlySet<string> = new Set(['docx', 'pptx', 'xlsx', 'odt', 'epub']);

interface Listing {
  names: string[];
  mimetype: string | undefined;
}

const zip = () => fileTypeById('zip');

function packageType({ names, mimetype }: Listing, partial = false): FileTypeInfo | undefined {
  if (mimetype) {
    const known = fileTypeByMime(mimetype);
    if (known) return known;
  }
  // A whole archive must have its content-types part. Of a cut one, only the first entries are known
  // and writers put that part anywhere (the docx library writes it last): a relationships part will do.
  const opc = partial
    ? names.some((name) => name === '[Content_Types].xml' || name.includes('_rels/'))
    : names.includes('[Content_Types].xml');
  if (opc) {
    if (names.some((name) => name.startsWith('word/'))) return fileTypeById('docx');
    if (names.some((name) => name.startsWith('ppt/'))) return fileTypeById('pptx');
    if (names.some((name) => name.startsWith('xl/'))) return fileTypeById('xlsx');
  }
  return undefined;
}

/** An OPC (Office) or ODF/EPUB package whose main part is missing: a broken document, not an archive. */
function isPackage({ names, mimetype }: Listing): boolean {
  return mimetype !== undefined || names.includes('[Content_Types].xml');
}

function readCentralListing(data: Uint8Array): Listing | undefined {
  const names: string[] = [];
  try {
    const entries = unzipSync(data, {
      filter: (file) => {
        names.push(file.name);
        return file.name === 'mimetype' && file.originalSize < 256;
      },
    });
    const mimetype = entries.mimetype ? new TextDecoder().decode(entries.mimetype).trim() : undefined;
    return { names, mimetype: mimetype || undefined };
  } catch {
    return undefined;
  }
}

const LOCAL_HEADER = 0x04034b50;
const MAX_LOCAL_ENTRIES = 1000;

/**
 * Entry names from the local file headers, walked from the start of the data. An entry whose sizes
 * are deferred to a data descriptor (flag bit 3) is skipped by searching for the next header.
 */
function readLocalHeaders(data: Uint8Array): Listing {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const names: string[] = [];
  let mimetype: string | undefined;
  let offset = 0;
  while (offset + 30 <= data.length && names.length < MAX_LOCAL_ENTRIES) {
    if (view.getUint32(offset, true) !== LOCAL_HEADER) break;
    const flags = view.getUint16(offset + 6, true);
    const method = view.getUint16(offset + 8, true);
    const compressedSize = view.getUint32(offset + 18, true);
    const nameLength = view.getUint16(offset + 26, true);
    const extraLength = view.getUint16(offset + 28, true);
    const bodyStart = offset + 30 + nameLength + extraLength;
    if (offset + 30 + nameLength > data.length) break;
    const name = new TextDecoder().decode(data.subarray(offset + 30, offset + 30 + nameLength));
    names.push(name);
    if (
      name === 'mimetype' &&
      method === 0 &&
      compressedSize < 256 &&
      bodyStart + compressedSize <= data.length
    ) {
      mimetype =
        new TextDecoder().decode(data.subarray(bodyStart, bodyStart + compressedSize)).trim() || undefined;
    }
    const deferred = (flags & 0x8) !== 0 && compressedSize === 0;
    offset = deferred ? nextLocalHeader(data, bodyStart) : bodyStart + compressedSize;
  }
  return { names, mimetype };
}

function nextLocalHeader(data: Uint8Array, from: number): number {
  for (let index = from; index + 4 <= data.length; index++) {
    if (
      data[index] === 0x50 &&
      data[index + 1] === 0x4b &&
      data[index + 2] === 0x03 &&
      data[index + 3] === 0x04
    )
      return index;
  }
  return data.length;
}
