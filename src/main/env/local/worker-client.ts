// The engine's side of a display worker: forks it with the display's environment, sends validated requests,
// turns a crash into an EnvironmentError on the calls in flight and restarts the worker on the next call; each
// restart is kept as an incident (incidents()) so the task's record says its worker was replaced.
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { EnvironmentError } from '../../errors';
import { cleanHostEnv } from './confinement';
import { FailsafeError, InputKilledError } from '../input-errors';
import { bundledWorker } from './worker-bundle';
import {
  replyProblem,
  type UnicodeTyping,
  type WorkerOp,
  type WorkerReply,
  type WorkerResult,
} from './worker-protocol';

// From source the worker is worker.ts run through tsx; in the Electron bundle it is the built worker.js beside
// the main bundle, run by Electron's own Node.
const BUILT_WORKER = fileURLToPath(new URL('./worker.js', import.meta.url));
const WORKER_FILE = existsSync(BUILT_WORKER)
  ? BUILT_WORKER
  : fileURLToPath(new URL('./worker.ts', import.meta.url));
// tsx is named by its resolved file: a bare 'tsx' would be looked up from the current folder, which fails when
// proctor runs from any folder but the project's
const WORKER_EXEC_ARGV = WORKER_FILE.endsWith('.ts')
  ? ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href]
  : [];
const START_TIMEOUT_MS = 30_000;
const CALL_TIMEOUT_MS = 60_000;

/** What to fork: the built worker.js; from source, the bundled worker (worker-bundle.ts), else worker.ts via tsx. */
async function workerProgram(): Promise<{ file: string; execArgv: string[] }> {
  if (!WORKER_FILE.endsWith('.ts')) return { file: WORKER_FILE, execArgv: [] };
  const bundle = await bundledWorker(WORKER_FILE);
  return bundle ? { file: bundle, execArgv: [] } : { file: WORKER_FILE, execArgv: WORKER_EXEC_ARGV };
}

interface Pending {
  resolve: (r: WorkerResult | undefined) => void;
  reject: (e: Error) => void;
  op: string;
  timer: NodeJS.Timeout;
}

/** A restart of the worker after it ended on its own (a crash, a kill) or by the kill switch. */
export interface WorkerIncident {
  at: string;
  incident: 'worker.restarted';
  message: string;
}

export interface WorkerClientOptions {
  failsafe: boolean;
  unicode: UnicodeTyping;
}

export class WorkerClient {
  private child: ChildProcess | undefined;
  private starting: Promise<ChildProcess> | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private stderrTail = '';
  private closed = false;
  /** Why the last worker ended while the client was open; a restart turns it into an incident. */
  private ended: string | undefined;
  private killing = false;
  private readonly pendingIncidents: WorkerIncident[] = [];

  constructor(
    private readonly displayEnv: Record<string, string>,
    private readonly options: WorkerClientOptions,
  ) {}

  /** Process id of the running worker (for tests and diagnostics). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  private start(): Promise<ChildProcess> {
    if (this.closed) return Promise.reject(new EnvironmentError('the display worker is closed'));
    this.starting ??= workerProgram()
      .then(
        (program) =>
          new Promise<ChildProcess>((resolve, reject) => {
            this.stderrTail = '';
            const child = fork(program.file, [], {
              execArgv: program.execArgv,
              // A clean environment: the worker needs the display, never Proctor's keys.
              env: {
                ...cleanHostEnv(),
                ...(process.env.HOME ? { HOME: process.env.HOME } : {}),
                ...this.displayEnv,
                ...(process.versions.electron ? { ELECTRON_RUN_AS_NODE: '1' } : {}),
              },
              serialization: 'advanced',
              stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
            });
            child.stderr?.on(
              'data',
              (d: Buffer) => (this.stderrTail = (this.stderrTail + d.toString()).slice(-2000)),
            );
            const timer = setTimeout(() => {
              child.kill('SIGKILL');
              reject(
                new EnvironmentError(
                  `the display worker for ${this.displayEnv.DISPLAY} did not start within ${START_TIMEOUT_MS} ms`,
                ),
              );
            }, START_TIMEOUT_MS);
            const onEarlyExit = (code: number | null, sig: string | null): void => {
              clearTimeout(timer);
              this.starting = undefined;
              reject(
                new EnvironmentError(
                  `the display worker for ${this.displayEnv.DISPLAY} exited while starting (${sig ?? code}): ${this.stderrTail.trim()}`,
                ),
              );
            };
            child.once('exit', onEarlyExit);
            child.once('message', (m: unknown) => {
              clearTimeout(timer);
              child.off('exit', onEarlyExit);
              if (replyProblem(m) || (m as WorkerReply).id !== 0) {
                child.kill('SIGKILL');
                this.starting = undefined;
                reject(new EnvironmentError(`the display worker sent a malformed greeting`));
                return;
              }
              child.on('message', (msg: unknown) => this.onMessage(msg));
              child.once('exit', (code, sig) => this.onExit(child, code, sig));
              this.child = child;
              if (this.ended) {
                this.pendingIncidents.push({
                  at: new Date().toISOString(),
                  incident: 'worker.restarted',
                  message: `${this.ended}; a new worker (pid ${child.pid}) was started`,
                });
                this.ended = undefined;
              }
              resolve(child);
            });
          }),
      )
      .then(async (child) => {
        await this.send(child, {
          op: 'init',
          failsafe: this.options.failsafe,
          unicode: this.options.unicode,
        });
        return child;
      });
    return this.starting;
  }

  private onMessage(msg: unknown): void {
    const problem = replyProblem(msg);
    const id = (msg as { id?: number })?.id;
    const p = typeof id === 'number' ? this.pending.get(id) : undefined;
    if (!p) return;
    this.pending.delete(id!);
    clearTimeout(p.timer);
    if (problem)
      return p.reject(
        new EnvironmentError(`the display worker answered ${p.op} with a malformed reply: ${problem}`),
      );
    const reply = msg as WorkerReply;
    if (reply.ok) return p.resolve(reply.result);
    if (reply.error.kind === 'failsafe') return p.reject(new FailsafeError(reply.error.message));
    if (reply.error.kind === 'aborted') return p.reject(new InputKilledError(reply.error.message));
    return p.reject(
      new EnvironmentError(`${p.op} failed on ${this.displayEnv.DISPLAY}: ${reply.error.message}`),
    );
  }

  private onExit(child: ChildProcess, code: number | null, sig: string | null): void {
    if (this.child === child) {
      this.child = undefined;
      this.starting = undefined;
    }
    const why = `the display worker for ${this.displayEnv.DISPLAY} ended (${sig ?? `exit ${code}`})${this.stderrTail.trim() ? `: ${this.stderrTail.trim()}` : ''}`;
    if (!this.closed)
      this.ended = `${this.killing ? 'the kill switch stopped the display worker' : why} (pid ${child.pid})`;
    this.killing = false;
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(new EnvironmentError(`${p.op}: ${why}; the next call starts a new worker`));
      this.pending.delete(id);
    }
  }

  private send(child: ChildProcess, op: WorkerOp): Promise<WorkerResult | undefined> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(
          new EnvironmentError(
            `${op.op} on ${this.displayEnv.DISPLAY} got no answer within ${CALL_TIMEOUT_MS} ms`,
          ),
        );
      }, CALL_TIMEOUT_MS);
      this.pending.set(id, { resolve, reject, op: op.op, timer });
      try {
        child.send({ ...op, id });
      } catch (e) {
        clearTimeout(timer);
        this.pending.delete(id);
        reject(
          new EnvironmentError(`cannot reach the display worker: ${(e as Error).message}`, { cause: e }),
        );
      }
    });
  }

  /** Starts the worker in the background (nothing waits for it; a failure is reported by the next call). */
  warm(): void {
    if (!this.child && !this.closed) this.start().catch(() => undefined);
  }

  async call(op: WorkerOp): Promise<WorkerResult | undefined> {
    const child = this.child ?? (await this.start());
    return this.send(child, op);
  }

  /** Tells a running worker to stop typing between keystrokes; does not start one. */
  abort(): void {
    if (this.child?.connected) this.send(this.child, { op: 'abort' }).catch(() => undefined);
  }

  /** Whether requests are in flight. */
  get busy(): boolean {
    return this.pending.size > 0;
  }

  /** Waits until no request is in flight, up to `ms`; true when idle. */
  async settle(ms: number): Promise<boolean> {
    const until = Date.now() + ms;
    while (this.busy && Date.now() < until) await new Promise((r) => setTimeout(r, 2));
    return !this.busy;
  }

  /** Ends the worker process now (in-flight calls fail with EnvironmentError). */
  kill(): void {
    if (this.child) this.killing = true;
    this.child?.kill('SIGKILL');
  }

  /** The restarts since the last call, oldest first (drained). */
  incidents(): WorkerIncident[] {
    return this.pendingIncidents.splice(0);
  }

  async close(): Promise<void> {
    this.closed = true;
    // A worker still starting (warm()) is closed once it is up, never left behind.
    if (!this.child && this.starting) await this.starting.catch(() => undefined);
    const child = this.child;
    if (!child) return;
    const gone = new Promise<void>((r) => child.once('exit', () => r()));
    child.disconnect?.();
    const t = setTimeout(() => child.kill('SIGKILL'), 500);
    await gone;
    clearTimeout(t);
  }
}
