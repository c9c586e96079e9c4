import type { RecordDescriptor } from '@docsvc/connectors';

export const STEPS = ['index', 'download', 'partition', 'stage', 'upload'] as const;
export type StepName = (typeof STEPS)[number];

export interface RecordFailure {
  record: string;
  step: StepName;
  /** ServiceError code, connector stage, or "error". */
  code: string;
  message: string;
}

/** What the pipeline reports while it runs; the CLI turns these into progress output. */
export type IngestEvent =
  | { type: 'listed'; record: RecordDescriptor }
  | { type: 'done'; record: RecordDescriptor; elements: number; ms: number }
  | { type: 'failed'; failure: RecordFailure };

export interface IngestSummary {
  /** Records listed by the source. */
  total: number;
  succeeded: number;
  failed: RecordFailure[];
  /** Elements written to the destination. */
  elements: number;
  ms: number;
}
