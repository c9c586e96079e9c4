import type { Paths, ServiceName } from './config.js';
import type { RunAs } from './process.js';
import type { Secrets } from './secrets.js';

/** What every server module gets: where things live, who servers run as, and the passwords. */
export interface Context {
  paths: Paths;
  /** The account servers that refuse root run as (`null`: the current user). */
  serviceUser: RunAs;
  secrets: Secrets;
  log: (message: string) => void;
}

/** How to launch a server process once its files are in place. */
export interface Launch {
  cmd: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Part of the server's command line, to recognise our process later (guards against recycled pids). */
  marker: string;
}

/** One test server: how to install it, start it, tell it is healthy and ask its version. */
export interface ServerModule {
  name: ServiceName;
  /** The port `status` shows and `up` checks. */
  port: number;
  /** Every port the server binds; all must be free before it starts. */
  ports: number[];
  /** Whether it must run as the unprivileged service user when we are root. */
  dropsRoot: boolean;
  startTimeoutMs: number;
  /** The signal for a clean, quick shutdown. */
  stopSignal: NodeJS.Signals;
  /** Fast check (files present) that decides whether `install` has work to do. */
  installed(ctx: Context): boolean;
  /** Downloads and unpacks the server into the cache; idempotent. */
  install(ctx: Context): Promise<void>;
  /** Writes configuration and data folders (idempotent) and says how to launch. */
  prepare(ctx: Context): Promise<Launch>;
  /** One health probe; throwing or false means "not yet". */
  healthy(ctx: Context): Promise<boolean>;
  /** Work once healthy, e.g. creating the API key or the test database. */
  afterStart?(ctx: Context): Promise<void>;
  /** The version the running server reports about itself. */
  version(ctx: Context): Promise<string>;
}
