import { inflateRawSync } from 'node:zlib';
import { ServiceError } from '../../errors.js';

/**
 * A read-only zip archive for OOXML/ODF packages that is safe against zip bombs.
 *
 * Only the central directory is parsed when the archive is opened; nothing is inflated until an entry is
 * read. Every read checks, BEFORE inflating, the entry's declared size against the decompression limit,
 * the declared compression ratio against what deflate can physically reach, and the running total of
 * inflated bytes; the native inflater then stops as soon as the output passes the declared size, so an
 * entry that lies about its size costs at most its declared size in memory.
 */

export interface ZipEntry {
  name: string;
  method: number;
  flags: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
}

/** Deflate cannot compress better than about 1032:1; a declared ratio above this is a lie (or a bomb). */
const MAX_DEFLATE_RATIO = 1100;
/** Small entries are never suspicious, whatever their ratio (an empty part compresses to 2 bytes). */
const RATIO_CHECK_MIN_BYTES = 1024 * 1024;

const SIG_EOCD = 0x06054b50;
const SIG_ZIP64_LOCATOR = 0x07064b50;
const SIG_ZIP64_EOCD = 0x06064b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_LOCAL = 0x04034b50;

export class ZipArchive {
  readonly entries: ReadonlyMap<string, ZipEntry>;
  private inflatedTotal = 0;

  private constructor(
    private readonly data: Uint8Array,
    entries: Map<string, ZipEntry>,
    private readonly maxBytes: number,
  ) {
    this.entries = entries;
  }

  /** Open an archive; throws corrupt_document when the bytes are not a readable zip. */
  static open(data: Uint8Array, maxDecompressedBytes: number): ZipArchive {
    return new ZipArchive(data, readCentralDirectory(data), maxDecompressedBytes);
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  names(): string[] {
    return [...this.entries.keys()];
  }

  /** The entry's bytes, or undefined when there is no such entry. */
  read(name: string): Uint8Array | undefined {
    const entry = this.entries.get(name);
    return entry ? this.inflate(entry) : undefined;
  }

  readText(name: string): string | undefined {
    const bytes = this.read(name);
    return bytes === undefined ? undefined : new TextDecoder('utf-8').decode(bytes);
  }

  private inflate(entry: ZipEntry): Uint8Array {
    if (entry.flags & 0x1) {
      throw new ServiceError('encrypted_document', `The archive entry ${entry.name} is encrypted.`);
    }
    const remaining = this.maxBytes - this.inflatedTotal;
    if (entry.uncompressedSize > remaining) {
      throw new ServiceError(
        'limit_exceeded',
        `Archive entry ${entry.name} declares ${entry.uncompressedSize} bytes, more than the decompression limit of ${this.maxBytes} bytes allows.`,
      );
    }
    if (
      entry.uncompressedSize > RATIO_CHECK_MIN_BYTES &&
      entry.uncompressedSize / Math.max(entry.compressedSize, 1) > MAX_DEFLATE_RATIO
    ) {
      throw new ServiceError(
        'limit_exceeded',
        `Archive entry ${entry.name} declares an impossible compression ratio (a zip bomb).`,
      );
    }
    const compressed = this.compressedBytes(entry);
    let output: Uint8Array;
    if (entry.method === 0) {
      output = compressed;
    } else if (entry.method === 8) {
      output = inflateEntry(entry, compressed);
    } else {
      throw new ServiceError(
        'corrupt_document',
        `Archive entry ${entry.name} uses unsupported compression method ${entry.method}.`,
      );
    }
    this.inflatedTotal += output.length;
    return output;
  }

  private compressedBytes(entry: ZipEntry): Uint8Array {
    const view = viewOf(this.data);
    const offset = entry.localHeaderOffset;
    if (offset + 30 > this.data.length || view.getUint32(offset, true) !== SIG_LOCAL) {
      throw corrupt(`the local header of ${entry.name} is missing`);
    }
    const start = offset + 30 + view.getUint16(offset + 26, true) + view.getUint16(offset + 28, true);
    const end = start + entry.compressedSize;
    if (end > this.data.length) throw corrupt(`entry ${entry.name} is truncated`);
    return this.data.subarray(start, end);
  }
}

function inflateEntry(entry: ZipEntry, compressed: Uint8Array): Uint8Array {
  try {
    // maxOutputLength makes zlib stop (RangeError) the moment the output outgrows the declared size.
    return inflateRawSync(compressed, { maxOutputLength: Math.max(entry.uncompressedSize, 1) });
  } catch (error) {
    if (error instanceof RangeError || (error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new ServiceError(
        'limit_exceeded',
        `Archive entry ${entry.name} inflates beyond its declared size of ${entry.uncompressedSize} bytes (a zip bomb).`,
      );
    }
    throw corrupt(`entry ${entry.name} cannot be inflated (${(error as Error).message})`);
  }
}

function corrupt(reason: string): ServiceError {
  return new ServiceError('corrupt_document', `The document is not a readable zip archive: ${reason}.`);
}

function viewOf(data: Uint8Array): DataView {
  return new DataView(data.buffer, data.byteOffset, data.byteLength);
}

function findEndOfCentralDirectory(data: Uint8Array, view: DataView): number {
  // The record is 22 bytes plus a comment of at most 65535 bytes, at the very end of the file.
  const lowest = Math.max(0, data.length - 22 - 0xffff);
  for (let offset = data.length - 22; offset >= lowest; offset--) {
    if (view.getUint32(offset, true) === SIG_EOCD) return offset;
  }
  return -1;
}

function readCentralDirectory(data: Uint8Array): Map<string, ZipEntry> {
  if (data.length < 22) throw corrupt('the file is too short');
  const view = viewOf(data);
  const eocd = findEndOfCentralDirectory(data, view);
  if (eocd < 0) throw corrupt('no end-of-central-directory record (truncated?)');

  let count = view.getUint16(eocd + 10, true);
  let directoryOffset = view.getUint32(eocd + 16, true);
  if ((count === 0xffff || directoryOffset === 0xffffffff) && eocd >= 20) {
    const locator = eocd - 20;
    if (view.getUint32(locator, true) === SIG_ZIP64_LOCATOR) {
      const record = Number(view.getBigUint64(locator + 8, true));
      if (record + 56 > data.length || view.getUint32(record, true) !== SIG_ZIP64_EOCD) {
        throw corrupt('bad zip64 end record');
      }
      count = Number(view.getBigUint64(record + 32, true));
      directoryOffset = Number(view.getBigUint64(record + 48, true));
    }
  }

  const entries = new Map<string, ZipEntry>();
  const decoder = new TextDecoder('utf-8');
  let offset = directoryOffset;
  for (let index = 0; index < count; index++) {
    if (offset + 46 > data.length || view.getUint32(offset, true) !== SIG_CENTRAL) {
      throw corrupt('the central directory is damaged');
    }
    const nameLength = view.getUint16(offset + 28, true);
    const extraLength = view.getUint16(offset + 30, true);
    const commentLength = view.getUint16(offset + 32, true);
    const entry: ZipEntry = {
      name: decoder.decode(data.subarray(offset + 46, offset + 46 + nameLength)),
      flags: view.getUint16(offset + 8, true),
      method: view.getUint16(offset + 10, true),
      compressedSize: view.getUint32(offset + 20, true),
      uncompressedSize: view.getUint32(offset + 24, true),
      localHeaderOffset: view.getUint32(offset + 42, true),
    };
    applyZip64Extra(entry, data.subarray(offset + 46 + nameLength, offset + 46 + nameLength + extraLength));
    entries.set(entry.name, entry);
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** Sizes and offsets of 0xFFFFFFFF mean "see the zip64 extra field", in this fixed order. */
function applyZip64Extra(entry: ZipEntry, extra: Uint8Array): void {
  const view = viewOf(extra);
  for (let offset = 0; offset + 4 <= extra.length; ) {
    const id = view.getUint16(offset, true);
    const size = view.getUint16(offset + 2, true);
    if (id === 0x0001) {
      let field = offset + 4;
      const next = () => {
        const value = field + 8 <= extra.length ? Number(view.getBigUint64(field, true)) : 0;
        field += 8;
        return value;
      };
      if (entry.uncompressedSize === 0xffffffff) entry.uncompressedSize = next();
      if (entry.compressedSize === 0xffffffff) entry.compressedSize = next();
      if (entry.localHeaderOffset === 0xffffffff) entry.localHeaderOffset = next();
      return;
    }
    offset += 4 + size;
  }
}
