import type { IngestEvent, IngestSummary } from '../pipeline/events.js';

/**
 * Plain progress lines for the first slice: one line per finished or failed record, then a summary.
 * (Progress bars on a TTY come with the full ingest command.)
 */
export function createReporter(out: NodeJS.WritableStream) {
  return {
    onEvent(event: IngestEvent) {
      if (event.type === 'done') {
        out.write(
          `ok      ${event.record.display_name} (${event.elements} elements, ${event.ms.toFixed(0)} ms)\n`,
        );
      } else if (event.type === 'failed') {
        const f = event.failure;
        out.write(`FAILED  ${f.record}: [${f.step}] ${f.code}: ${f.message}\n`);
      }
    },
    finish(summary: IngestSummary) {
      out.write(
        `\n${summary.succeeded} of ${summary.total} records processed, ${summary.failed.length} failed, ` +
          `${summary.elements} elements, ${(summary.ms / 1000).toFixed(1)} s\n`,
      );
      if (summary.failed.length > 0) {
        out.write(`Failed records:\n`);
        for (const f of summary.failed) out.write(`  ${f.record}: [${f.step}] ${f.message}\n`);
      }
    },
  };
}
