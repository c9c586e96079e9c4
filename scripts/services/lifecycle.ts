import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { paths, SERVICE_NAMES, type ServiceName } from './config.js';
import { engineA } from './engine-a.js';
import { engineB } from './engine-b.js';
import { withLock } from './lock.js';
import { postgres } from './postgres.js';
import {
  clearState,
  groupRssMiB,
  isOurProcess,
  logTail,
  portOpen,
  readState,
  ServicesError,
  spawnServer,
  stopGroup,
  waitUntil,
  writeState,
} from './process.js';
import { proxy } from './proxy.js';
import { loadSecrets } from './secrets.js';
import type { Context, ServerModule } from './service.js';
import { serviceUser } from './service-user.js';
import { vectorDb } from './vector-db.js';

/** install / up / down / status over the server modules, shared by the CLI and the vitest global set-up. */

export const SERVERS: Record<ServiceName, ServerModule> = {
  engine_a: engineA,
  engine_b: engineB,
  vector_db: vectorDb,
  postgres,
  proxy,
};

export async function createContext(log: (message: string) => void = defaultLog): Promise<Context> {
  const where = paths();
  mkdirSync(join(where.root, 'run'), { recursive: true });
  return { paths: where, serviceUser: await serviceUser(), secrets: loadSecrets(where.secrets), log };
}

function defaultLog(message: string): void {
  process.stderr.write(`services: ${message}\n`);
}

export function runDirOf(ctx: Context, name: ServiceName): string {
  return ctx.paths.run(name.replaceAll('_', '-'));
}

function logFileOf(ctx: Context, name: ServiceName): string {
  return join(runDirOf(ctx, name), 'server.log');
}

/**
 * Downloads what is missing. The two Maven-based installs run one after the other (Maven's local
 * repository is not safe for concurrent writers); pip runs beside them.
 */
export async function installAll(ctx: Context, names: readonly ServiceName[]): Promise<void> {
  const missing = names.filter((name) => !SERVERS[name].installed(ctx));
  const usesMaven = (name: ServiceName) => name === 'engine_a' || name === 'engine_b';
  const maven = missing.filter(usesMaven);
  const others = missing.filter((name) => !usesMaven(name));
  const mavenChain = (async () => {
    for (const name of maven) await SERVERS[name].install(ctx);
  })();
  await Promise.all([mavenChain, ...others.map((name) => SERVERS[name].install(ctx))]);
}

export type UpOutcome = 'started' | 'reused';

export class UpError extends ServicesError {
  constructor(
    message: string,
    /** Servers this call did start before the failure (callers may stop them). */
    readonly started: ServiceName[],
  ) {
    super(message);
  }
}

export async function up(ctx: Context, names: readonly ServiceName[]): Promise<Record<string, UpOutcome>> {
  return withLock(ctx.paths.lock, async () => {
    await installAll(ctx, names);
    const results = await Promise.allSettled(names.map((name) => ensureRunning(ctx, name)));
    const outcomes: Record<string, UpOutcome> = {};
    const failures: string[] = [];
    results.forEach((result, index) => {
      const name = names[index]!;
      if (result.status === 'fulfilled') outcomes[name] = result.value;
      else failures.push(result.reason instanceof Error ? result.reason.message : String(result.reason));
    });
    if (failures.length > 0) {
      const started = names.filter((name) => outcomes[name] === 'started');
      throw new UpError(failures.join('\n\n'), started);
    }
    return outcomes;
  });
}

async function ensureRunning(ctx: Context, name: ServiceName): Promise<UpOutcome> {
  const server = SERVERS[name];
  const runDir = runDirOf(ctx, name);
  mkdirSync(runDir, { recursive: true });
  const state = readState(runDir);
  if (state && isOurProcess(state.pid, state.marker)) {
    await waitHealthy(ctx, server, state.pid);
    await server.afterStart?.(ctx);
    return 'reused';
  }
  clearState(runDir);
  for (const port of server.ports) {
    if (await portOpen(port)) {
      throw new ServicesError(
        `${name}: port ${port} is already in use by a program that scripts/services did not start ` +
          `(see \`ss -ltnp 'sport = :${port}'\`); stop it, or point the tests at it with the variables in docs/testing.md`,
      );
    }
  }
  const launch = await server.prepare(ctx);
  const logFile = logFileOf(ctx, name);
  const startedAt = Date.now();
  for (let attempt = 1; ; attempt++) {
    appendFileSync(
      logFile,
      `\n=== scripts/services: starting ${name} (attempt ${attempt}) at ${new Date().toISOString()}\n`,
    );
    const pid = spawnServer({ ...launch, runAs: server.dropsRoot ? ctx.serviceUser : null, logFile });
    writeState(runDir, {
      name,
      pid,
      port: server.port,
      startedAt: new Date().toISOString(),
      marker: launch.marker,
    });
    try {
      await waitHealthy(ctx, server, pid);
      break;
    } catch (error) {
      const died = processGone(pid);
      await stopGroup(pid, 'SIGKILL', 10_000);
      clearState(runDir);
      // A process that died at once may have lost a race for its port; one more try, then give up.
      if (attempt < 2 && died && !(error instanceof ServicesError && /stored password/.test(error.message)))
        continue;
      const message = error instanceof Error ? error.message : String(error);
      throw new ServicesError(`${message}\n--- last lines of ${logFile} ---\n${logTail(logFile)}`);
    }
  }
  await server.afterStart?.(ctx);
  ctx.log(
    `${name}: started, healthy after ${((Date.now() - startedAt) / 1000).toFixed(1)} s (port ${server.port})`,
  );
  return 'started';
}

function waitHealthy(ctx: Context, server: ServerModule, pid: number): Promise<void> {
  return waitUntil(`${server.name} on port ${server.port}`, () => server.healthy(ctx), {
    timeoutMs: server.startTimeoutMs,
    intervalMs: 500,
    failedBecause: () => (processGone(pid) ? 'the server process exited during start-up' : undefined),
  });
}

function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
}

/** Stops the named servers if scripts/services started them; returns the ones it stopped. */
export async function down(ctx: Context, names: readonly ServiceName[]): Promise<ServiceName[]> {
  return withLock(ctx.paths.lock, async () => {
    const stopped: ServiceName[] = [];
    await Promise.all(
      names.map(async (name) => {
        const runDir = runDirOf(ctx, name);
        const state = readState(runDir);
        if (state && isOurProcess(state.pid, state.marker)) {
          await stopGroup(state.pid, SERVERS[name].stopSignal, 60_000);
          stopped.push(name);
        }
        clearState(runDir);
      }),
    );
    return stopped;
  });
}

export interface ServerStatus {
  name: ServiceName;
  port: number;
  state: 'running' | 'stopped' | 'unhealthy';
  pid?: number;
  version?: string;
  rssMiB?: number;
  detail?: string;
}

export async function status(
  ctx: Context,
  names: readonly ServiceName[] = SERVICE_NAMES,
): Promise<ServerStatus[]> {
  return Promise.all(
    names.map(async (name): Promise<ServerStatus> => {
      const server = SERVERS[name];
      const state = readState(runDirOf(ctx, name));
      if (!state || !isOurProcess(state.pid, state.marker))
        return { name, port: server.port, state: 'stopped' };
      const base = { name, port: server.port, pid: state.pid, rssMiB: groupRssMiB(state.pid) };
      try {
        if (!(await server.healthy(ctx))) return { ...base, state: 'unhealthy' };
        return { ...base, state: 'running', version: await server.version(ctx) };
      } catch (error) {
        return {
          ...base,
          state: 'unhealthy',
          detail: error instanceof Error ? error.message : String(error),
        };
      }
    }),
  );
}
