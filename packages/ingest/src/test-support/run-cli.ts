import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '../../../..');
const entry = join(repoRoot, 'packages/ingest/src/cli/main.ts');

export interface CliResult {
  code: number | null;
  /** The signal that ended the process (e.g. SIGKILL), if any. */
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Run `service-ingest` from its sources (no build needed), as a real child process. */
/** A cache folder private to this test process (the default work dir lives under it). */
const TEST_CACHE_HOME = mkdtempSync(join(tmpdir(), 'docsvc-cli-cache-'));

export function runCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  return spawnCli(args, env).result;
}

/**
 * Start `service-ingest` and return the child (to signal it, e.g. SIGKILL mid-run) with its outcome.
 * An env value of `undefined` removes that variable from the child's environment.
 */
export function spawnCli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): { child: ChildProcess; result: Promise<CliResult> } {
  // Runs never share the developer's real cache folder unless a test asks for it.
  const childEnv = { ...process.env, XDG_CACHE_HOME: TEST_CACHE_HOME, ...env };
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete childEnv[name];
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', entry, ...args], {
    cwd: repoRoot,
    env: childEnv,
  });
  const result = new Promise<CliResult>((resolve, reject) => {
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
