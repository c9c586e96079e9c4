import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';

/**
 * Process plumbing shared by every server module: running set-up commands, starting a server detached
 * (its own process group, output to a log file), remembering it in a state file, waiting for it to be
 * healthy, and stopping it again.
 */

export class ServicesError extends Error {
  override name = 'ServicesError';
}

/** The account a command runs as; `null` means "as whoever runs this script". */
export type RunAs = { name: string; uid: number; gid: number } | null;

export interface RunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  runAs?: RunAs;
  input?: string;
  timeoutMs?: number;
}

/** Runs a command to completion; rejects with its output tail when it fails. */
export function run(
  cmd: string,
  args: readonly string[],
  options: RunOptions = {},
): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(cmd, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      ...(options.runAs ? { uid: options.runAs.uid, gid: options.runAs.gid } : {}),
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = options.timeoutMs
      ? setTimeout(() => child.kill('SIGKILL'), options.timeoutMs).unref()
      : undefined;
    child.on('error', (error) => {
      if (timer) clearTimeout(timer);
      reject(new ServicesError(`could not run ${cmd}: ${error.message}`));
    });
    child.on('close', (code, signal) => {
      if (timer) clearTimeout(timer);
      if (code === 0) {
        resolvePromise({ stdout, stderr });
        return;
      }
      const output = tailLines(`${stdout}\n${stderr}`, 30);
      const why = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      reject(new ServicesError(`${cmd} ${args.join(' ')} ${why}\n${output}`));
    });
    if (child.stdin) {
      // A command may exit without reading its input; that is its exit code's business, not a crash here.
      child.stdin.on('error', () => {});
      child.stdin.end(options.input);
    }
  });
}

export interface ServerState {
  name: string;
  pid: number;
  port: number;
  startedAt: string;
  /** A string the process's command line must contain; guards against a recycled pid. */
  marker: string;
}

const STATE_FILE = 'state.json';

export function readState(runDir: string): ServerState | undefined {
  const file = join(runDir, STATE_FILE);
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as ServerState;
  } catch {
    return undefined;
  }
}

export function writeState(runDir: string, state: ServerState): void {
  writeFileSync(join(runDir, STATE_FILE), `${JSON.stringify(state, null, 2)}\n`);
}

export function clearState(runDir: string): void {
  rmSync(join(runDir, STATE_FILE), { force: true });
}

/** True when `pid` is a live process whose command line contains `marker`. */
export function isOurProcess(pid: number, marker: string): boolean {
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const processState = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return processState !== 'Z' && cmdline.includes(marker);
  } catch {
    return false;
  }
}

export interface SpawnSpec {
  cmd: string;
  args: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  runAs: RunAs;
  logFile: string;
}

/** Starts a server in its own process group with stdout and stderr appended to `logFile`. */
export function spawnServer(spec: SpawnSpec): number {
  const log = openSync(spec.logFile, 'a');
  try {
    const child = spawn(spec.cmd, spec.args, {
      cwd: spec.cwd,
      env: spec.env,
      detached: true,
      stdio: ['ignore', log, log],
      ...(spec.runAs ? { uid: spec.runAs.uid, gid: spec.runAs.gid } : {}),
    });
    child.unref();
    if (child.pid === undefined) throw new ServicesError(`could not start ${spec.cmd}`);
    return child.pid;
  } finally {
    closeSync(log);
  }
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Signals the whole process group, waits, and kills it if it has not gone within `timeoutMs`. */
export async function stopGroup(pgid: number, signal: NodeJS.Signals, timeoutMs: number): Promise<void> {
  if (!groupAlive(pgid)) return;
  try {
    process.kill(-pgid, signal);
  } catch {
    return;
  }
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!groupAlive(pgid) || onlyZombiesLeft(pgid)) return;
    await sleep(200);
  }
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** Processes of a group, read from /proc: `[pid, rssKiB, state]`. */
function groupMembers(pgid: number): [number, number, string][] {
  const members: [number, number, string][] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after the command name, which is in parentheses and may contain spaces.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) !== pgid) continue;
      const rssPages = Number(fields[21]);
      members.push([Number(entry), (rssPages * 4096) / 1024, fields[0] ?? '?']);
    } catch {
      // the process ended while we looked
    }
  }
  return members;
}

function onlyZombiesLeft(pgid: number): boolean {
  return groupMembers(pgid).every(([, , state]) => state === 'Z');
}

/** Resident memory of a process group in MiB (the JVM launcher and the server JVM of engine_a, say). */
export function groupRssMiB(pgid: number): number {
  const kib = groupMembers(pgid).reduce((sum, [, rss]) => sum + rss, 0);
  return Math.round(kib / 1024);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolvePromise) => setTimeout(resolvePromise, ms));
}

/** True when something accepts TCP connections on 127.0.0.1:`port`. */
export function portOpen(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolvePromise) => {
    const socket = connect({ port, host });
    socket.setTimeout(1000);
    socket.once('connect', () => {
      socket.destroy();
      resolvePromise(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolvePromise(false);
    });
    socket.once('error', () => resolvePromise(false));
  });
}

export function tailLines(text: string, lines: number): string {
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}

export function logTail(file: string, lines = 40): string {
  if (!existsSync(file)) return `(no log at ${file})`;
  return tailLines(readFileSync(file, 'utf8'), lines);
}

export interface WaitOptions {
  timeoutMs: number;
  intervalMs?: number;
  /** Stops waiting early (the server process died, say); returns the reason. */
  failedBecause?: () => string | undefined;
}

/**
 * Polls `probe` until it returns true. A probe that throws counts as "not yet" (connection refused while
 * the server starts); the last error is reported if time runs out.
 */
export async function waitUntil(
  what: string,
  probe: () => Promise<boolean>,
  options: WaitOptions,
): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  let lastError = 'no answer yet';
  for (;;) {
    try {
      if (await probe()) return;
      lastError = 'not ready';
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error);
    }
    const failure = options.failedBecause?.();
    if (failure) throw new ServicesError(`${what}: ${failure}`);
    if (Date.now() > deadline) {
      throw new ServicesError(`${what}: not healthy after ${options.timeoutMs / 1000} s (${lastError})`);
    }
    await sleep(options.intervalMs ?? 500);
  }
}
