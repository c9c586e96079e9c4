import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addAbortSignal, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type {} from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { HttpError } from './http-error.js';

/** An uploaded file: small ones stay in memory, larger ones are spooled to a temporary file. */
export interface Upload {
  fieldname: string;
  filename: string;
  /** Content-Type of the part, when the client sent a meaningful one. */
  contentType: string | undefined;
  size: number;
  read(): Promise<Uint8Array>;
}

export interface ParsedForm {
  files: Upload[];
  fields: Record<string, string[]>;
  /** Remove temporary files; call on every path (success and error). */
  cleanup(): Promise<void>;
}

/** Up to this size an upload is kept in memory; above it, it streams to a temporary file. */
const IN_MEMORY_LIMIT = 2 * 1024 * 1024;

/**
 * Read a multipart request: file parts are streamed (never a whole large upload in memory), other
 * parts collected as strings under their names with a trailing `[]` removed. `maxTotalBytes` bounds
 * the sum of all files (413).
 */
export async function readMultipart(
  request: FastifyRequest,
  maxTotalBytes: number,
  signal?: AbortSignal,
): Promise<ParsedForm> {
  const files: Upload[] = [];
  const fields: Record<string, string[]> = {};
  const temporaryFiles: string[] = [];
  let total = 0;
  const cleanup = async () => {
    await Promise.all(temporaryFiles.map((path) => rm(path, { force: true })));
  };
  try {
    // A client that disconnects mid-upload leaves the part iterator waiting forever: race it against the
    // signal so the request ends (and gives back its admission slot and temporary files).
    const parts = request.parts()[Symbol.asyncIterator]();
    while (true) {
      const next = await untilAborted(parts.next(), signal);
      if (next.done) break;
      const part = next.value;
      const name = part.fieldname.endsWith('[]') ? part.fieldname.slice(0, -2) : part.fieldname;
      if (part.type === 'field') {
        fields[name] = [...(fields[name] ?? []), String(part.value)];
        continue;
      }
      if (signal) addAbortSignal(signal, part.file);
      const upload = await spool(part.file, maxTotalBytes - total, temporaryFiles);
      total += upload.size;
      const declared = part.mimetype?.split(';')[0]?.trim().toLowerCase();
      files.push({
        fieldname: name,
        filename: part.filename || 'upload',
        contentType: declared && declared !== 'application/octet-stream' ? declared : undefined,
        ...upload,
      });
    }
  } catch (error) {
    await cleanup();
    throw error;
  }
  return { files, fields, cleanup };
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

async function spool(
  stream: Readable,
  remaining: number,
  temporaryFiles: string[],
): Promise<{ size: number; read(): Promise<Uint8Array> }> {
  const chunks: Buffer[] = [];
  let size = 0;
  const tooLarge = () => new HttpError(413, 'Upload exceeds the size limit of this server.');
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > remaining) {
      stream.resume();
      throw tooLarge();
    }
    chunks.push(chunk);
    if (size > IN_MEMORY_LIMIT) {
      const path = join(tmpdir(), `docsvc-upload-${randomUUID()}`);
      temporaryFiles.push(path);
      const out = createWriteStream(path);
      for (const buffered of chunks) out.write(buffered);
      chunks.length = 0;
      let written = size;
      await pipeline(
        stream,
        async function* (source: AsyncIterable<Buffer>) {
          for await (const more of source) {
            written += more.length;
            if (written > remaining) throw tooLarge();
            yield more;
          }
        },
        out,
      );
      const finalSize = written;
      if ((stream as Readable & { truncated?: boolean }).truncated) throw tooLarge();
      return { size: finalSize, read: () => readFile(path) };
    }
  }
  if ((stream as Readable & { truncated?: boolean }).truncated) throw tooLarge();
  const data = Buffer.concat(chunks);
  return { size, read: async () => data };
}
