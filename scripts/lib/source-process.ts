import { type ChildProcess, spawn } from 'node:child_process';

export interface ProcessResult {
  code: number | null;
  /** The signal that ended the process (e.g. SIGKILL), if any. */
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Run a TypeScript entry point from the sources (no build needed) as a real child process, e.g. a
 * command under test. Returns the child (to signal it mid-run) and its outcome with all output.
 */
export function spawnSource(
  entry: string,
  args: readonly string[],
  options: SpawnOptions = {},
): { child: ChildProcess; result: Promise<ProcessResult> } {
  return spawnCommand(process.execPath, ['--conditions=source', '--import', 'tsx', entry, ...args], options);
}

interface SpawnOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

/** Run any command as a child process and collect its output. */
export function spawnCommand(
  command: string,
  args: readonly string[],
  options: SpawnOptions = {},
): { child: ChildProcess; result: Promise<ProcessResult> } {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env });
  const result = new Promise<ProcessResult>((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, result };
}
