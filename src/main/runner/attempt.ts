// One attempt's running state, shared by the step loop's stages: its abort signal (the run stopping, the time
// limit), what it is doing now (for where a time limit struck), the environment's time, and the events it writes
// beside the steps (setup phases, the environment's incidents). A stage ends the attempt early by throwing a Stop.
import type { RunEvent, SetupStepTiming, TaskState } from '../../shared/run';
import type { Agent } from '../agents/agent';
import type { Environment } from '../env/environment';
import type { AttemptFacts } from '../store/attempt-cause';
import type { StepLimits } from './task-plan';

/** Why the attempt stopped early; thrown inside a stage, mapped to a state at the end of the attempt. */
export class Stop extends Error {
  constructor(
    readonly state: TaskState,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export type Phase = NonNullable<AttemptFacts['timedOutIn']>;

export function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Resolves with `p`, or rejects with a Stop as soon as `signal` aborts (the abort reason is the Stop). */
export function until<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

export const sleep = (ms: number, signal: AbortSignal) =>
  until(new Promise<void>((r) => setTimeout(r, ms)), signal);

export function envFailure(what: string, e: unknown): Stop {
  if (e instanceof Stop) return e;
  return new Stop('env_error', `${what}: ${message(e)}`, { cause: e });
}

/** Where the attempt's events go: the run's event log. */
export interface TaskEvents {
  readonly runId: string;
  event(event: RunEvent): void;
}

export class TaskAttempt {
  readonly signal: AbortSignal;
  /** What the attempt is doing now, for where a time limit struck (attribution). */
  phase: Phase = 'environment';
  timedOutIn: AttemptFacts['timedOutIn'];
  /** Time spent in environment operations (ms). */
  envMs = 0;
  /** The step being taken (0: none), named on the environment's incidents. */
  step = 0;
  /** The attempt's environment and sandbox home once made (closed and removed at its end). */
  env: Environment | undefined;
  home: string | undefined;
  /** The agent once started (finished at the attempt's end). */
  agent: Agent | undefined;
  private readonly controller = new AbortController();
  private readonly timer: ReturnType<typeof setTimeout>;
  private readonly onRunAbort = () => this.controller.abort(new Stop('cancelled', 'the run was stopped'));

  /** Starts the attempt's clock: `runSignal` aborting cancels it, the time limit times it out. */
  constructor(
    private readonly runSignal: AbortSignal,
    limits: Pick<StepLimits, 'timeoutMs'>,
    taskId: string,
    private readonly events: TaskEvents,
    private readonly taskKey: string,
  ) {
    this.signal = this.controller.signal;
    if (runSignal.aborted) this.onRunAbort();
    else runSignal.addEventListener('abort', this.onRunAbort, { once: true });
    this.timer = setTimeout(() => {
      this.timedOutIn = this.phase;
      this.controller.abort(
        new Stop('timed_out', `Time limit exceeded in ${taskId} (${Math.round(limits.timeoutMs / 1000)} s)`),
      );
    }, limits.timeoutMs);
  }

  /** Stops the clock (the attempt is over). */
  dispose(): void {
    clearTimeout(this.timer);
    this.runSignal.removeEventListener('abort', this.onRunAbort);
  }

  /** Runs an environment operation, counting its time as the environment's. */
  async inEnv<T>(p: () => Promise<T>): Promise<T> {
    this.phase = 'environment';
    const t0 = performance.now();
    try {
      return await p();
    } finally {
      this.envMs += performance.now() - t0;
    }
  }

  /** Runs an agent call until the attempt stops; its failure ends the attempt as agent_error. */
  agentCall<T>(p: () => Promise<T>, what: string): Promise<T> {
    this.phase = 'agent';
    return until((async () => p())(), this.signal).catch((e) => {
      if (e instanceof Stop) throw e;
      throw new Stop('agent_error', `${what}: ${message(e)}`, { cause: e });
    });
  }

  /** What the environment went through on its own (a display worker restarted…), as events on the task. */
  noteIncidents(): void {
    for (const i of this.env?.incidents?.() ?? [])
      this.events.event({
        kind: 'task.incident',
        runId: this.events.runId,
        taskKey: this.taskKey,
        at: i.at,
        ...(this.step ? { step: this.step } : {}),
        incident: i.incident,
        message: i.message,
      });
  }

  /** Setup's steps, timed as they end, and one `task.setup` event per phase (config, postconfig) that had steps. */
  setupPhase(phase: 'config' | 'postconfig') {
    const steps: SetupStepTiming[] = [];
    const t0 = performance.now();
    return {
      onStep: (s: SetupStepTiming) => void steps.push(s),
      done: (error?: string) => {
        if (!steps.length && !error) return; // a phase without steps has nothing to record
        this.events.event({
          kind: 'task.setup',
          runId: this.events.runId,
          taskKey: this.taskKey,
          at: new Date().toISOString(),
          phase,
          ms: Math.round(performance.now() - t0),
          ok: !error,
          steps,
          ...(error ? { error } : {}),
        });
      },
    };
  }
}
