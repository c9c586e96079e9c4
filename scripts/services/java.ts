import { realpathSync } from 'node:fs';
import { dirname } from 'node:path';
import { run, ServicesError } from './process.js';

/**
 * The JDK the two search engines run on: the `java` on PATH (Debian's OpenJDK 17 here). Elasticsearch's
 * launcher ignores JAVA_HOME and wants ES_JAVA_HOME, so both are derived from the same binary.
 */
export interface Java {
  home: string;
  bin: string;
  major: number;
}

let cached: Java | undefined;

export async function findJava(): Promise<Java> {
  if (cached) return cached;
  let bin: string;
  try {
    bin = realpathSync((await run('sh', ['-c', 'command -v java'])).stdout.trim());
  } catch {
    throw new ServicesError(
      'java is not installed; install a JDK 17 or newer (Debian: openjdk-17-jdk-headless)',
    );
  }
  const { stderr, stdout } = await run(bin, ['-version']);
  const match = /version "(\d+)(?:\.(\d+))?/.exec(stderr + stdout);
  const first = Number(match?.[1] ?? 0);
  const major = first === 1 ? Number(match?.[2] ?? 0) : first;
  if (major < 17)
    throw new ServicesError(`java ${major} found at ${bin}; the search engines need 17 or newer`);
  cached = { home: dirname(dirname(bin)), bin, major };
  return cached;
}

/** `javac` of the same JDK, for the small engine_a analysis module. */
export function javacOf(java: Java): string {
  return `${java.home}/bin/javac`;
}
