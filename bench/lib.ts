import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

/** A benchmark suite: measures one area and returns a Markdown section for docs/performance.md. */
export interface BenchSuite {
  /** Section marker name in docs/performance.md, e.g. "bench-formats". */
  name: string;
  /** Heading used when the section is first added. */
  title: string;
  run(): Promise<string>;
}

/** Run `fn` `runs` times after one warm-up and return the median duration in milliseconds. */
export async function medianMs(fn: () => Promise<unknown>, runs = 5): Promise<number> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

/**
 * Peak resident set size of this process so far, in MiB: VmHWM on Linux. Not getrusage's maxRSS, which
 * a child process inherits from its parent at fork (a child of a 600 MiB bench process reported
 * 600 MiB whatever it did).
 */
export function peakRssMiB(): number {
  try {
    const match = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (match) return Number(match[1]) / 1024;
  } catch {
    // not Linux: fall through
  }
  return process.resourceUsage().maxRSS / 1024;
}

export function machineLine(): string {
  return `Node ${process.version}, ${process.platform}/${process.arch}, measured ${new Date().toISOString().slice(0, 10)}`;
}
