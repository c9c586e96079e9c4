import type { FileTypeInfo } from '../detect/file-types.js';
import type { ElementDraft } from '../elements/element.js';
import type { PartitionOptions } from '../options/partition-options.js';
import type { PartitionLimits } from '../pipeline/limits.js';

/** What a format partitioner receives: bytes (never a path), the detected type and the validated options. */
export interface FormatContext {
  data: Uint8Array;
  filename: string | undefined;
  fileType: FileTypeInfo;
  options: PartitionOptions;
  limits: PartitionLimits;
  signal: AbortSignal | undefined;
  /**
   * Partition content embedded in this document (e-mail attachments, EPUB chapters) with the same
   * options. The returned drafts already carry the embedded file's filename and filetype.
   */
  partitionNested(input: NestedInput): Promise<ElementDraft[]>;
}

export interface NestedInput {
  data: Uint8Array;
  filename?: string | undefined;
  content_type?: string | undefined;
}

/**
 * A format partitioner turns one document into element drafts in reading order. It does not assign
 * ids, parent links, languages, or document-wide metadata: the pipeline's finalize step does that for
 * every format alike. It throws ServiceError (corrupt_document, encrypted_document, ...) for bad input.
 */
export type FormatPartitioner = (context: FormatContext) => Promise<ElementDraft[]>;

/** Each format folder's `partition.ts` exports this shape. */
export interface FormatModule {
  partition: FormatPartitioner;
}
