import { MultiBar, Presets, type SingleBar } from 'cli-progress';
import type { IngestEvent, IngestSummary } from '../pipeline/events.js';
import { STEPS } from '../pipeline/events.js';

export interface ReporterOptions {
  out: NodeJS.WriteStream;
  format: 'text' | 'json';
  verbose: boolean;
  quiet: boolean;
}

/** What the run is about to do, announced before any work (not with --quiet). */
export interface RunStart {
  source: string;
  destination: string;
  work_dir: string;
  dry_run: boolean;
}

export interface Reporter {
  start(run: RunStart): void;
  onEvent(event: IngestEvent): void;
  finish(summary: IngestSummary): void;
}

function startLine(run: RunStart): string {
  return `service-ingest: ${run.source} → ${run.destination}${run.dry_run ? ' (dry run)' : ''}, work dir ${run.work_dir}\n`;
}

/** Progress bars on a terminal; periodic plain lines otherwise; one JSON object per event with json. */
export function createReporter(options: ReporterOptions): Reporter {
  if (options.format === 'json') return jsonReporter(options.out);
  if (options.out.isTTY && !options.quiet && !options.verbose) return barReporter(options.out);
  return lineReporter(options);
}

function describe(event: IngestEvent): Record<string, unknown> {
  if (event.type === 'failed') return { event: 'failed', ...event.failure };
  const { record, type, ...rest } = event;
  return { event: type, record: record.display_name, ...rest };
}

function jsonReporter(out: NodeJS.WriteStream): Reporter {
  return {
    start: (run) =>
      out.write(`${JSON.stringify({ time: new Date().toISOString(), event: 'start', ...run })}\n`),
    onEvent: (event) =>
      out.write(`${JSON.stringify({ time: new Date().toISOString(), ...describe(event) })}\n`),
    finish: (summary) =>
      out.write(`${JSON.stringify({ time: new Date().toISOString(), event: 'summary', ...summary })}\n`),
  };
}

function lineReporter({ out, verbose, quiet }: ReporterOptions): Reporter {
  const counts = { listed: 0, done: 0, skipped: 0, failed: 0 };
  let lastLine = Date.now();
  const progress = () => {
    if (quiet || Date.now() - lastLine < 5_000) return;
    lastLine = Date.now();
    out.write(
      `progress: ${counts.listed} listed, ${counts.done} done, ${counts.skipped} unchanged, ${counts.failed} failed\n`,
    );
  };
  return {
    start(run) {
      if (!quiet) out.write(startLine(run));
    },
    onEvent(event) {
      if (event.type === 'listed') counts.listed++;
      if (event.type === 'done') {
        counts.done++;
        if (verbose)
          out.write(
            `ok      ${event.record.display_name} (${event.elements} elements, ${event.ms.toFixed(0)} ms)\n`,
          );
      }
      if (event.type === 'skipped') {
        counts.skipped++;
        if (verbose) out.write(`skip    ${event.record.display_name}: ${event.reason}\n`);
      }
      if (event.type === 'step' && verbose) {
        out.write(
          `  ${event.step.padEnd(9)} ${event.record.display_name}${event.cached ? ' (cached)' : ''} ${event.ms.toFixed(0)} ms\n`,
        );
      }
      if (event.type === 'failed') {
        counts.failed++;
        const f = event.failure;
        out.write(`FAILED  ${f.record}: [${f.step}] ${f.code}: ${f.message}\n`);
      }
      progress();
    },
    finish: (summary) => writeSummary(out, summary),
  };
}

function barReporter(out: NodeJS.WriteStream): Reporter {
  const bars = new MultiBar(
    { stream: out, format: ' {bar} {value}/{total} {name}', hideCursor: true, clearOnComplete: false },
    Presets.shades_classic,
  );
  const overall: SingleBar = bars.create(0, 0, { name: 'records (listing...)' });
  const stepBars = new Map(STEPS.slice(1).map((step) => [step, bars.create(0, 0, { name: step })]));
  let listed = 0;
  let finished = 0;
  const failures: string[] = [];
  return {
    start: (run) => out.write(startLine(run)),
    onEvent(event) {
      if (event.type === 'listed') {
        listed++;
        overall.setTotal(listed);
        for (const bar of stepBars.values()) bar.setTotal(listed);
      } else if (event.type === 'step') {
        stepBars.get(event.step)?.increment();
      } else if (event.type === 'done' || event.type === 'skipped' || event.type === 'failed') {
        finished++;
        overall.update(finished, { name: 'records' });
        if (event.type === 'failed')
          failures.push(
            `FAILED  ${event.failure.record}: [${event.failure.step}] ${event.failure.code}: ${event.failure.message}`,
          );
      }
    },
    finish(summary) {
      bars.stop();
      for (const line of failures) out.write(`${line}\n`);
      writeSummary(out, summary);
    },
  };
}

function writeSummary(out: NodeJS.WriteStream, summary: IngestSummary): void {
  if (summary.plan) {
    const wouldProcess = summary.plan.filter((item) => item.status !== 'unchanged').length;
    out.write(
      `dry run: ${summary.total} records listed, ${wouldProcess} would be processed; nothing was written\n`,
    );
    for (const f of summary.failed) out.write(`  ${f.record}: [${f.step}] ${f.code}: ${f.message}\n`);
    return;
  }
  out.write(
    `\n${summary.succeeded} of ${summary.total} records processed, ${summary.skipped} unchanged, ${summary.failed.length} failed, ` +
      `${summary.elements} elements, ${(summary.ms / 1000).toFixed(1)} s\n`,
  );
  const steps = STEPS.filter((step) => {
    const c = summary.steps[step];
    return c.done + c.cached + c.failed > 0;
  }).map((step) => {
    const c = summary.steps[step];
    return `${step} ${c.done}${c.cached ? ` (+${c.cached} cached)` : ''}${c.failed ? ` (${c.failed} failed)` : ''}`;
  });
  if (steps.length > 0) out.write(`steps: ${steps.join(', ')}\n`);
  if (summary.failed.length > 0) {
    out.write('Failed records:\n');
    for (const f of summary.failed) out.write(`  ${f.record}: [${f.step}] ${f.code}: ${f.message}\n`);
  }
}
