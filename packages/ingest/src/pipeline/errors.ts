import type { RecordFailure } from './events.js';

/** Thrown before any work when options or a connector precheck fail (the CLI exits with 2). */
export class IngestSetupError extends Error {
  override readonly name = 'IngestSetupError';
}

/** Raised with raise_on_error at the first failing record. */
export class RecordFailedError extends Error {
  override readonly name = 'RecordFailedError';
  constructor(readonly failure: RecordFailure) {
    super(`${failure.record}: [${failure.step}] ${failure.message}`);
  }
}
