import { SERVICE_NAMES, type ServiceName } from './config.js';
import { createContext, down, installAll, status, UpError, up } from './lifecycle.js';
import { ServicesError } from './process.js';
import { buildServiceEnv, exportLines } from './service-env.js';

/**
 * scripts/services/run (or `npm run services -- <command>`): the test servers for integration tests.
 *
 *   up [name…]      install on first use, start (or reuse) and wait until healthy
 *   down [name…]    stop what scripts/services started
 *   status          each server's state, port, version and memory
 *   env             `export` lines for the variables the tests read (eval "$(… env)")
 *   install [name…] download and unpack only (scripts/provision uses this)
 */

const USAGE = `usage: scripts/services/run <up|down|status|env|install> [${SERVICE_NAMES.join('|')} …]`;

function parseNames(args: string[]): ServiceName[] {
  if (args.length === 0) return [...SERVICE_NAMES];
  for (const arg of args) {
    if (!(SERVICE_NAMES as readonly string[]).includes(arg))
      throw new ServicesError(`unknown server ${arg}\n${USAGE}`);
  }
  return args as ServiceName[];
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const names = parseNames(rest);
  const ctx = await createContext();
  switch (command) {
    case 'install': {
      await installAll(ctx, names);
      return 0;
    }
    case 'up': {
      const began = Date.now();
      try {
        const outcomes = await up(ctx, names);
        for (const [name, outcome] of Object.entries(outcomes)) {
          if (outcome === 'reused') ctx.log(`${name}: already running, reused`);
        }
      } catch (error) {
        if (error instanceof UpError && error.started.length > 0) {
          ctx.log(`left running: ${error.started.join(', ')} (npm run services -- down stops them)`);
        }
        throw error;
      }
      ctx.log(`all up in ${((Date.now() - began) / 1000).toFixed(1)} s; cache: ${ctx.paths.root}`);
      return 0;
    }
    case 'down': {
      const stopped = await down(ctx, names);
      ctx.log(stopped.length > 0 ? `stopped: ${stopped.join(', ')}` : 'nothing was running');
      return 0;
    }
    case 'status': {
      const rows = await status(ctx, names);
      for (const row of rows) {
        const memory = row.rssMiB === undefined ? '' : `  ${row.rssMiB} MiB`;
        const pid = row.pid === undefined ? '' : `  pid ${row.pid}`;
        const version = row.version ?? row.detail ?? '';
        console.log(
          `${row.name.padEnd(10)} ${row.state.padEnd(9)} port ${String(row.port).padEnd(6)}${pid}${memory}  ${version}`,
        );
      }
      return rows.every((row) => row.state === 'running') ? 0 : 3;
    }
    case 'env': {
      const { vars, missing } = buildServiceEnv(ctx, names);
      for (const item of missing) ctx.log(`missing ${item}`);
      console.log(exportLines(vars));
      return missing.length > 0 ? 1 : 0;
    }
    default:
      throw new ServicesError(USAGE);
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const message =
      error instanceof ServicesError
        ? error.message
        : error instanceof Error
          ? (error.stack ?? error.message)
          : String(error);
    process.stderr.write(`services: ${message}\n`);
    process.exit(1);
  },
);
