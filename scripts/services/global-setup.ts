import { createContext, down, UpError, up } from './lifecycle.js';
import { buildServiceEnv, servicesToManage } from './service-env.js';

/**
 * Vitest global set-up of the `integration` project. Starts (or reuses) the servers whose variables are
 * not already set, exports their variables to the test processes, and on teardown stops only the servers
 * this run started: a developer's already-running servers are left as they were.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const managed = servicesToManage(process.env);
  if (managed.length === 0) return async () => {};
  const ctx = await createContext((message) => process.stderr.write(`[services] ${message}\n`));
  let outcomes: Record<string, string>;
  try {
    outcomes = await up(ctx, managed);
  } catch (error) {
    if (error instanceof UpError && error.started.length > 0) await down(ctx, error.started);
    throw error;
  }
  const { vars, missing } = buildServiceEnv(ctx, managed);
  if (missing.length > 0) throw new Error(`test services are up but ${missing.join(', ')} is missing`);
  // Workers are forked after global set-up and inherit this process's environment.
  for (const [name, value] of Object.entries(vars)) process.env[name] = value;
  const startedHere = managed.filter((name) => outcomes[name] === 'started');
  return async () => {
    if (startedHere.length > 0) await down(ctx, startedHere);
  };
}
