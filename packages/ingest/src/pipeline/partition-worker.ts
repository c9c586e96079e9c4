import { type Element, type PartitionOptionsInput, partition, toServiceError } from '@docsvc/partition';

/** One document to partition in a worker thread (bytes are transferred, not copied). */
export interface PartitionTask {
  data: Uint8Array;
  filename: string;
  file_directory?: string | undefined;
  content_type?: string | undefined;
  last_modified?: string | undefined;
  options: PartitionOptionsInput;
}

/**
 * The outcome crosses the thread boundary as plain data: structured cloning keeps only an Error's message,
 * so typed errors travel as { code, message } and are rebuilt on the other side.
 */
export type PartitionOutcome =
  | { ok: true; elements: Element[] }
  | { ok: false; error: ReturnType<ReturnType<typeof toServiceError>['toJSON']> };

/** Worker entry of the partition pool (partition-pool.ts). */
export default async function runPartitionTask(task: PartitionTask): Promise<PartitionOutcome> {
  const { options, ...document } = task;
  try {
    return { ok: true, elements: await partition(document, options) };
  } catch (error) {
    return { ok: false, error: toServiceError(error).toJSON() };
  }
}
