import type { RecordDescriptor } from '@docsvc/connectors';

export const STEPS = [
  'index',
  'download',
  'partition',
  'chunk',
  'embed',
  'enrich',
  'stage',
  'upload',
] as const;
export type StepName = (typeof STEPS)[number];

export interface RecordFailure {
  record: string;
  step: StepName;
  /** ServiceError code, connector stage, or "error". */
  code: string;
  message: string;
}

/** Why a record is (or would be, in a dry run) processed, or skipped. */
export type RecordStatus = 'new' | 'changed' | 'unchanged';

export interface StepCounts {
  /** Ran the step. */
  done: number;
  /** Reused a cached output of an earlier run. */
  cached: number;
  failed: number;
}

/** What the pipeline reports while it runs; the CLI turns these into progress output. */
export type IngestEvent =
  | { type: 'listed'; record: RecordDescriptor; status: RecordStatus; reason: string }
  | { type: 'step'; record: RecordDescriptor; step: StepName; cached: boolean; ms: number }
  | { type: 'done'; record: RecordDescriptor; elements: number; ms: number }
  | { type: 'skipped'; record: RecordDescriptor; reason: string }
  | { type: 'failed'; failure: RecordFailure };

export interface IngestSummary {
  /** Records listed by the source. */
  total: number;
  /** Records processed and uploaded in this run. */
  succeeded: number;
  /** Records unchanged since their last successful upload (nothing to do). */
  skipped: number;
  failed: RecordFailure[];
  /** Elements written to the destination. */
  elements: number;
  /** Per step: how often it ran, was served from cache, or failed. */
  steps: Record<StepName, StepCounts>;
  ms: number;
  /** With dry_run: every listed record with what would happen to it. */
  plan?: { record: string; status: RecordStatus; reason: string }[];
}

export function emptySummary(): IngestSummary {
  const steps = Object.fromEntries(STEPS.map((step) => [step, { done: 0, cached: 0, failed: 0 }])) as Record<
    StepName,
    StepCounts
  >;
  return { total: 0, succeeded: 0, skipped: 0, failed: [], elements: 0, steps, ms: 0 };
}
