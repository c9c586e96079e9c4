import { type ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';
import type { PartitionOptionsInput } from '../../options/partition-options.js';
import type { PartitionReply, PartitionRequest, SlimElement } from './partition-child.js';

export type { SlimElement } from './partition-child.js';

/**
 * partition() in a child process with a time limit per file. A file that runs past the limit gets the
 * child killed (a synchronous loop cannot be interrupted in-process) and is reported as a hang; a child
 * that dies (native crash, out of memory) is reported as a crash. The next file gets a fresh child.
 */

export type IsolatedOutcome =
  | { kind: 'elements'; elements: SlimElement[]; ms: number }
  | { kind: 'error'; typed: boolean; code: string; message: string; ms: number }
  | { kind: 'hang'; ms: number }
  | { kind: 'crash'; message: string; ms: number };

const CHILD = join(import.meta.dirname, 'partition-child.ts');

export class IsolatedPartitioner {
  private child: ChildProcess | undefined;
  private nextId = 0;

  constructor(private readonly timeoutMs: number) {}

  async run(
    path: string,
    options: PartitionOptionsInput = {},
    mode: PartitionRequest['mode'] = 'partition',
  ): Promise<IsolatedOutcome> {
    const child = this.ensureChild();
    const request: PartitionRequest = { id: this.nextId++, path, options, mode };
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    return new Promise<IsolatedOutcome>((resolve) => {
      const finish = (outcome: IsolatedOutcome) => {
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(outcome);
      };
      const onMessage = (reply: PartitionReply) => {
        if (reply.id !== request.id) return;
        if (reply.ok) finish({ kind: 'elements', elements: reply.elements, ms: elapsed() });
        else
          finish({
            kind: 'error',
            typed: reply.typed,
            code: reply.code,
            message: reply.message,
            ms: elapsed(),
          });
      };
      const onExit = (code: number | null, signal: string | null) => {
        this.child = undefined;
        finish({ kind: 'crash', message: `child exited (code ${code}, signal ${signal})`, ms: elapsed() });
      };
      const timer = setTimeout(() => {
        this.kill();
        finish({ kind: 'hang', ms: elapsed() });
      }, this.timeoutMs);
      child.on('message', onMessage);
      child.on('exit', onExit);
      child.send(request);
    });
  }

  async close(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = undefined;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        resolve();
      }, 10_000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.send('exit');
    });
  }

  private ensureChild(): ChildProcess {
    if (this.child) return this.child;
    // The child runs the TypeScript sources, as the tests do (tsx, the `source` export condition).
    this.child = fork(CHILD, [], {
      execArgv: ['--conditions=source', '--import', 'tsx'],
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    return this.child;
  }

  private kill(): void {
    const child = this.child;
    this.child = undefined;
    child?.kill('SIGKILL');
  }
}
