import { type ChildProcess, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ProcessResult, spawnCommand, spawnSource } from '../../../../scripts/lib/source-process.js';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '../../../..');
const entry = join(repoRoot, 'packages/ingest/src/cli/main.ts');

export type CliResult = ProcessResult;

/** A cache folder private to this test process (the default work dir lives under it). */
const TEST_CACHE_HOME = mkdtempSync(join(tmpdir(), 'docsvc-cli-cache-'));

/** Run `service-ingest` from its sources (no build needed), as a real child process. */
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
  return spawnSource(entry, args, { cwd: repoRoot, env: childEnv });
}

/** util-linux `script`, which runs a command in a pseudo-terminal (absent on some systems). */
export const hasScriptCommand = spawnSync('script', ['--version']).status === 0;

/**
 * Run `service-ingest` in a pseudo-terminal (through `script`), as a user at a terminal would: standard
 * output and error are then TTYs, so the CLI draws progress bars. Both arrive in `stdout`.
 */
export function runCliInTerminal(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  const quote = (word: string) => `'${word.replaceAll("'", "'\\''")}'`;
  const command = [process.execPath, '--conditions=source', '--import', 'tsx', entry, ...args]
    .map(quote)
    .join(' ');
  const childEnv = { ...process.env, XDG_CACHE_HOME: TEST_CACHE_HOME, ...env };
  return spawnCommand('script', ['-qec', command, '/dev/null'], { cwd: repoRoot, env: childEnv }).result;
}
