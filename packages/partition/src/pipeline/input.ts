import { gunzipSync } from 'node:zlib';
import { ServiceError } from '../errors.js';

/** A document handed to `partition()`: bytes plus what the caller knows about them. */
export interface DocumentInput {
  data: Uint8Array;
  /** File name (a path is reduced to its base name in metadata.filename). */
  filename?: string | undefined;
  /** Directory of the file, for local sources (metadata.file_directory). */
  file_directory?: string | undefined;
  /** MIME type the caller declares (e.g. a multipart part's Content-Type); overridden by options.content_type. */
  content_type?: string | undefined;
  /** ISO-8601 modification time (metadata.last_modified). */
  last_modified?: string | undefined;
}

export type PartitionInput = Uint8Array | DocumentInput;

export function toDocumentInput(input: PartitionInput): DocumentInput {
  if (input instanceof Uint8Array) return { data: input };
  if (!input || !(input.data instanceof Uint8Array)) {
    throw new ServiceError(
      'invalid_option',
      'partition() needs bytes: a Uint8Array or { data: Uint8Array, ... }',
    );
  }
  return input;
}

export function baseName(filename: string | undefined): string | undefined {
  if (!filename) return undefined;
  return filename.split(/[\\/]/).pop() || undefined;
}

export function isGzip(data: Uint8Array): boolean {
  return data.length >= 3 && data[0] === 0x1f && data[1] === 0x8b && data[2] === 0x08;
}

/**
 * gzip input is decompressed (with a cap) before detection: the `.gz` suffix leaves the file name, and
 * the content type becomes `gz_uncompressed_content_type` when given, else it is detected.
 */
export function gunzipInput(
  document: DocumentInput,
  uncompressedContentType: string | undefined,
  maxBytes: number,
): DocumentInput {
  let data: Uint8Array;
  try {
    data = gunzipSync(document.data, { maxOutputLength: maxBytes });
  } catch (error) {
    if (error instanceof RangeError || (error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new ServiceError(
        'limit_exceeded',
        `Decompressed gzip content exceeds the limit of ${maxBytes} bytes`,
      );
    }
    throw new ServiceError('corrupt_document', `Invalid gzip data: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const filename = document.filename?.replace(/\.gz$/i, '');
  return { ...document, data, filename, content_type: uncompressedContentType };
}
