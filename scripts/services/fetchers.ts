import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { run, ServicesError } from './process.js';

/**
 * Downloads through the registries' own clients: Maven (for the engine_a zip and the engine_b jars) and
 * pip (for the vector_db server). Everything lands in the cache folder, never in the repository.
 */

/** Copies a pom's dependencies (and their transitive runtime dependencies) into `outputDir`. */
export async function mavenCopyDependencies(
  pom: string,
  mavenRepo: string,
  outputDir: string,
): Promise<void> {
  await requireTool('mvn', 'the Debian package maven');
  const staging = `${outputDir}.partial`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  await run(
    'mvn',
    [
      '-B',
      '-q',
      '-f',
      pom,
      `-Dmaven.repo.local=${mavenRepo}`,
      'dependency:copy-dependencies',
      '-DincludeScope=runtime',
      `-DoutputDirectory=${staging}`,
    ],
    { timeoutMs: 20 * 60_000 },
  );
  rmSync(outputDir, { recursive: true, force: true });
  await run('mv', [staging, outputDir]);
}

export async function unzip(zip: string, into: string): Promise<void> {
  await requireTool('unzip', 'the Debian package unzip');
  mkdirSync(into, { recursive: true });
  await run('unzip', ['-q', '-o', zip, '-d', into]);
}

/** Creates a virtual environment (when missing) and installs exact requirements into it. */
export async function pipInstall(venv: string, requirements: string[]): Promise<void> {
  const python = process.env.DOCSVC_PYTHON ?? 'python3';
  await requireTool(python, 'Python 3.10 or newer (python3)');
  if (!existsSync(join(venv, 'bin', 'python'))) {
    await run(python, ['-m', 'venv', venv]);
  }
  await run(join(venv, 'bin', 'python'), ['-m', 'pip', 'install', '--quiet', ...requirements], {
    timeoutMs: 20 * 60_000,
  });
}

export async function requireTool(tool: string, hint: string): Promise<void> {
  try {
    await run('sh', ['-c', `command -v "${tool}"`]);
  } catch {
    throw new ServicesError(`${tool} is not installed; install ${hint} (scripts/provision does this)`);
  }
}

/** The only file in `dir` whose name ends with `suffix`. */
export function singleFile(dir: string, suffix: string): string {
  const matches = readdirSync(dir).filter((name) => name.endsWith(suffix));
  if (matches.length !== 1) {
    throw new ServicesError(`expected one *${suffix} in ${dir}, found ${matches.length}`);
  }
  return join(dir, matches[0]!);
}
