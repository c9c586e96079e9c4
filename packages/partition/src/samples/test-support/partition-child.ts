import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { detectFileType } from '../../detect/detect.js';
import { isServiceError } from '../../errors.js';
import { openImage } from '../../formats/image/decode.js';
import { closeOcrEngines } from '../../ocr/engines.js';
import type { PartitionOptionsInput } from '../../options/partition-options.js';
import { DEFAULT_LIMITS } from '../../pipeline/limits.js';
import { partition } from '../../pipeline/partition.js';
import { closePagePool } from '../../workers/page-pool.js';

/**
 * A child process that partitions files on request (isolated-partition.ts), so that the sample suite can
 * kill a file that hangs and survive one that crashes the process. Messages in: a request; out: a reply.
 */

export interface PartitionRequest {
  id: number;
  path: string;
  options: PartitionOptionsInput;
  /**
   * `partition` (default), or `decode-image`: detect the type and decode every page of an image without
   * OCR (the fast check of images; OCR of every sample image takes minutes on two cores).
   */
  mode?: 'partition' | 'decode-image';
}

export interface SlimElement {
  type: string;
  text: string;
  page_number?: number;
  text_as_html?: string;
}

export type PartitionReply =
  | { id: number; ok: true; elements: SlimElement[] }
  | { id: number; ok: false; typed: boolean; code: string; message: string };

process.on('message', async (request: PartitionRequest | 'exit') => {
  if (request === 'exit') {
    await closePagePool();
    await closeOcrEngines();
    process.exit(0);
  }
  let reply: PartitionReply;
  try {
    if (request.mode === 'decode-image') {
      process.send!({ id: request.id, ok: true, elements: await decodeImage(request.path) });
      return;
    }
    const elements = await partition(
      { data: readFileSync(request.path), filename: basename(request.path) },
      request.options,
    );
    reply = {
      id: request.id,
      ok: true,
      elements: elements.map((element) => ({
        type: element.type,
        text: element.text,
        page_number: element.metadata.page_number,
        text_as_html: element.metadata.text_as_html,
      })),
    };
  } catch (error) {
    reply = {
      id: request.id,
      ok: false,
      typed: isServiceError(error),
      code: isServiceError(error) ? error.code : 'untyped',
      message: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    };
  }
  process.send!(reply);
});

/** Every page decoded; the "elements" are one UncategorizedText per page naming its size. */
async function decodeImage(path: string): Promise<SlimElement[]> {
  const data = new Uint8Array(readFileSync(path));
  const type = await detectFileType({ data, filename: basename(path) });
  const image = await openImage(data, DEFAULT_LIMITS.maxImagePixels);
  const pages: SlimElement[] = [];
  for (let index = 0; index < image.pageCount; index++) {
    const page = await image.page(index);
    pages.push({
      type: 'UncategorizedText',
      text: `${type.id} ${page.width}x${page.height}`,
      page_number: index + 1,
    });
  }
  return pages;
}
