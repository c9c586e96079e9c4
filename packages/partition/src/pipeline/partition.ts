import { detectFileType } from '../detect/detect.js';
import type { Element, ElementDraft } from '../elements/element.js';
import { ServiceError, toServiceError } from '../errors.js';
import type { FormatContext, NestedInput } from '../formats/format.js';
import { loadPartitioner } from '../formats/registry.js';
import {
  type PartitionOptions,
  type PartitionOptionsInput,
  partitionOptionSet,
} from '../options/partition-options.js';
import { applyDocumentFacts, finalizeElements } from './finalize.js';
import {
  baseName,
  type DocumentInput,
  gunzipInput,
  isGzip,
  type PartitionInput,
  toDocumentInput,
} from './input.js';
import { type PartitionLimits, resolveLimits } from './limits.js';

export interface PartitionRuntime {
  limits?: Partial<PartitionLimits>;
  signal?: AbortSignal;
}

/**
 * Partition one document into elements. The single entry point behind the library, `service-ingest`
 * and the HTTP API. Throws ServiceError with a stable `code` for every bad input.
 *
 * @example
 * const elements = await partition({ data: await readFile('report.docx'), filename: 'report.docx' });
 */
export async function partition(
  input: PartitionInput,
  options: PartitionOptionsInput = {},
  runtime: PartitionRuntime = {},
): Promise<Element[]> {
  const validated = partitionOptionSet.parse(options);
  const limits = resolveLimits(runtime.limits);
  const document = prepareDocument(toDocumentInput(input), validated, limits);
  const { drafts, filetype } = await partitionToDrafts(document, validated, limits, runtime.signal, 0);
  return finalizeElements(
    drafts,
    {
      filename: baseName(document.filename),
      file_directory: document.file_directory,
      filetype,
      last_modified: document.last_modified,
    },
    validated,
  );
}

/** How deep attachments may nest (an e-mail attached to an e-mail attached to ...). */
const MAX_NESTING = 5;

function prepareDocument(
  document: DocumentInput,
  options: PartitionOptions,
  limits: PartitionLimits,
): DocumentInput {
  const gzipped = isGzip(document.data);
  if (!gzipped) return document;
  return gunzipInput(document, options.gz_uncompressed_content_type, limits.maxDecompressedBytes);
}

async function partitionToDrafts(
  document: DocumentInput,
  options: PartitionOptions,
  limits: PartitionLimits,
  signal: AbortSignal | undefined,
  depth: number,
): Promise<{ drafts: ElementDraft[]; filetype: string }> {
  const contentType = depth === 0 ? (options.content_type ?? document.content_type) : document.content_type;
  const fileType = await detectFileType({
    data: document.data,
    filename: document.filename,
    content_type: contentType,
    // The caller's encoding describes the document they gave, not the files embedded in it.
    encoding: depth === 0 ? options.encoding : undefined,
  });
  const partitioner = await loadPartitioner(fileType);
  const context: FormatContext = {
    data: document.data,
    filename: baseName(document.filename),
    fileType,
    options,
    limits,
    signal,
    partitionNested: async (nested: NestedInput) => {
      if (depth + 1 > MAX_NESTING) {
        throw new ServiceError('limit_exceeded', `Embedded documents nest deeper than ${MAX_NESTING} levels`);
      }
      const inner = prepareDocument(nested, options, limits);
      const result = await partitionToDrafts(inner, options, limits, signal, depth + 1);
      for (const draft of result.drafts) {
        draft.metadata ??= {};
        applyDocumentFacts(draft.metadata, { filename: baseName(inner.filename), filetype: result.filetype });
      }
      return result.drafts;
    },
  };
  try {
    return { drafts: await partitioner(context), filetype: fileType.mime };
  } catch (error) {
    // A parser that throws on its input means the input is broken; a TypeError or the like is our bug.
    const isBug =
      error instanceof TypeError || error instanceof ReferenceError || error instanceof SyntaxError;
    throw toServiceError(error, isBug ? 'internal' : 'corrupt_document');
  }
}
