import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ServiceError } from '../../errors.js';

/**
 * Converting legacy binary Office files (.doc, .ppt) to their OOXML successors with LibreOffice, run
 * headless in a temporary folder with its own user profile (so it never touches or waits on a user's
 * running LibreOffice), under a time limit, and removed afterwards. Conversions in one process run one
 * at a time: LibreOffice is memory-hungry and the profile folder is reused between them, which saves its
 * start-up cost (seconds) on every file after the first.
 */

/** Debian packages that provide the converter; scripts/apt-packages.txt lists them for provisioning. */
export const LIBREOFFICE_PACKAGES = 'libreoffice-writer-nogui libreoffice-impress-nogui';
const DEFAULT_TIMEOUT_MS = 120_000;
const EXECUTABLES = ['soffice', 'libreoffice'];

/** The LibreOffice executable: $DOCSVC_SOFFICE when set, else `soffice`/`libreoffice` on PATH. */
export function findSoffice(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const configured = env.DOCSVC_SOFFICE;
  if (configured) return existsSync(configured) ? configured : undefined;
  for (const folder of (env.PATH ?? '').split(delimiter)) {
    for (const name of EXECUTABLES) {
      const candidate = join(folder, name);
      if (folder && existsSync(candidate)) return candidate;
    }
  }
  return undefined;
}

let queue: Promise<unknown> = Promise.resolve();
let profileFolder: Promise<string> | undefined;

const PROFILE_PREFIX = 'docsvc-soffice-profile-';

function sharedProfile(): Promise<string> {
  profileFolder ??= (async () => {
    await removeStaleProfiles();
    const folder = await mkdtemp(join(tmpdir(), `${PROFILE_PREFIX}${process.pid}-`));
    process.once('exit', () => {
      // Synchronous clean-up is the only kind allowed in an exit handler.
      rmSync(folder, { recursive: true, force: true });
    });
    return folder;
  })();
  return profileFolder;
}

/** Profiles of processes that died without their exit handler (killed, worker threads) are removed. */
async function removeStaleProfiles(): Promise<void> {
  const names = await readdir(tmpdir()).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.startsWith(PROFILE_PREFIX)) continue;
    const pid = Number(name.slice(PROFILE_PREFIX.length).split('-')[0]);
    if (!Number.isInteger(pid) || pid <= 0 || isAlive(pid)) continue;
    await rm(join(tmpdir(), name), { recursive: true, force: true }).catch(() => undefined);
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface ConvertOptions {
  /** Time limit in milliseconds (0 or absent = two minutes). */
  timeoutMs?: number | undefined;
  signal?: AbortSignal | undefined;
}

/** Convert `data` (a file with extension `from`) to format `to` (e.g. "docx") and return the new bytes. */
export function convertWithLibreOffice(
  data: Uint8Array,
  from: string,
  to: string,
  options: ConvertOptions = {},
): Promise<Uint8Array> {
  const soffice = findSoffice();
  if (!soffice) {
    return Promise.reject(
      new ServiceError(
        'converter_unavailable',
        `Partitioning .${from} files needs LibreOffice, which is not installed. Install it (Debian/Ubuntu: apt-get install ${LIBREOFFICE_PACKAGES}; or set DOCSVC_SOFFICE to the soffice executable), or convert the file to .${to} first.`,
      ),
    );
  }
  const run = queue.then(() => convertOnce(soffice, data, from, to, options));
  queue = run.catch(() => undefined);
  return run;
}

async function convertOnce(
  soffice: string,
  data: Uint8Array,
  from: string,
  to: string,
  options: ConvertOptions,
): Promise<Uint8Array> {
  const work = await mkdtemp(join(tmpdir(), 'docsvc-convert-'));
  try {
    const input = join(work, `document.${from}`);
    const output = join(work, 'out');
    await mkdir(output);
    await writeFile(input, data);
    const profile = pathToFileURL(await sharedProfile()).href;
    const timeout = options.timeoutMs && options.timeoutMs > 0 ? options.timeoutMs : DEFAULT_TIMEOUT_MS;
    await runSoffice(
      soffice,
      [
        `-env:UserInstallation=${profile}`,
        '--headless',
        '--norestore',
        '--nolockcheck',
        '--convert-to',
        to,
        '--outdir',
        output,
        input,
      ],
      { timeout, from, signal: options.signal },
    );
    const converted = join(output, `document.${to}`);
    if (!existsSync(converted)) {
      throw new ServiceError(
        'corrupt_document',
        `LibreOffice could not read the .${from} file (it may be damaged or password-protected).`,
      );
    }
    return new Uint8Array(await readFile(converted));
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * Run LibreOffice in its own process group. `soffice` is a script that execs a launcher which starts
 * `soffice.bin` as a child, so killing only the direct child on a timeout would leave the real converter
 * running: the whole group is killed instead.
 */
function runSoffice(
  soffice: string,
  args: string[],
  { timeout, from, signal }: { timeout: number; from: string; signal: AbortSignal | undefined },
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(soffice, args, { detached: true, stdio: 'ignore' });
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // the group has already exited
      }
    };
    let outcome: ServiceError | undefined;
    const timer = setTimeout(() => {
      outcome = new ServiceError(
        'timeout',
        `LibreOffice did not convert the .${from} file within ${timeout} ms.`,
      );
      killGroup();
    }, timeout);
    const onAbort = () => {
      outcome = new ServiceError('timeout', `Converting the .${from} file was cancelled.`);
      killGroup();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    child.once('error', (error) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      reject(new ServiceError('converter_unavailable', `LibreOffice could not be started: ${error.message}`));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (outcome) reject(outcome);
      else if (code !== 0)
        reject(
          new ServiceError(
            'corrupt_document',
            `LibreOffice failed to convert the .${from} file (exit code ${code}).`,
          ),
        );
      else resolve();
    });
  });
}
