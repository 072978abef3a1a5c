// Runs the entries of a run this process holds: the run's options resolved once into a schedule (the agent,
// each task's settings, the engine's parts, how many workers), then N workers taking entries in turn, each task
// through the step loop, with progress events as they go.
import type { RunEvent, RunTaskItem, TaskState } from '../../shared/run';
import type { Task } from '../../shared/task';
import { sweepLeftovers } from '../env/leftovers';
import { gradingUnder } from '../evaluators/grade';
import { subscribeRunEvents } from '../store/events';
import { readRun } from '../store/reader';
import { TaskLockedError, type RunWriter } from '../store/run-writer';
import { partsWith, withEnvironment, type RunnerParts } from './parts';
import { agentForTask, preflight, type AgentChoice, type RunOptions } from './run-options';
import { runTask, type TaskOutcome } from './step-loop';
import { taskSettings, type TaskRunSettings } from './task-plan';

/** One entry of a run: a task, or one attempt of it in a repeated run. */
export interface RunEntry {
  key: string;
  task: Task;
  attempt?: number;
}

export interface RunOutcome {
  runId: string;
  runDir: string;
  /** Every task of the set, in manifest order, as the reader sees the folder at the end. */
  tasks: RunTaskItem[];
  /** Sum of scores over ALL tasks of the set (skipped and errored count as 0). */
  successRate: number;
  counts: Partial<Record<TaskState, number>>;
  /** The run was stopped before every task was done. */
  cancelled: boolean;
  /** Tasks this invocation ran (a resume runs only the unfinished ones). */
  ran: TaskOutcome[];
  /** Attempts a resume ran again because their cause was env_error or grading_error (with the retry flags). */
  retried: string[];
}

/** A run's options resolved once into what running its entries reads. */
interface Schedule {
  agents: Pick<AgentChoice, 'agent' | 'model' | 'agentOptions'>;
  settingsOf: (task: Task) => TaskRunSettings;
  parts: RunnerParts;
  signal: AbortSignal;
  onEvent?: (event: RunEvent) => void;
  parallel: number;
  /** Causes of finished attempts that are run again (a resume with the retry flags). */
  retryCauses: ReadonlySet<string>;
}

const failedStates: ReadonlySet<TaskState> = new Set([
  'timed_out',
  'setup_error',
  'env_error',
  'agent_error',
]);

/** Checks the environment, sweeps what killed runs left, and resolves the options into the run's schedule. */
async function scheduleOf(opts: RunOptions): Promise<Schedule> {
  preflight(opts);
  // What SIGKILLed runs left behind (sandbox homes, display folders) goes before this run adds its own.
  await sweepLeftovers();
  const parts = withEnvironment(
    await partsWith({ ...gradingUnder(opts.gradingProfile), ...opts.parts }),
    opts.env,
  );
  return {
    agents: { agent: opts.agent, model: opts.model, agentOptions: opts.agentOptions },
    settingsOf: (task) => taskSettings(task, opts),
    parts,
    signal: opts.signal ?? new AbortController().signal,
    onEvent: opts.onEvent,
    parallel: Math.max(1, Math.min(opts.parallel ?? 1, 64)),
    retryCauses: new Set([
      ...(opts.retryEnvErrors ? ['env_error'] : []),
      ...(opts.retryGradingErrors ? ['grading_error'] : []),
    ]),
  };
}

/** Runs the tasks of a run this process holds, and releases the run's lock however it ends. */
export async function execute(run: RunWriter, entries: RunEntry[], opts: RunOptions): Promise<RunOutcome> {
  try {
    return await executeHeld(run, entries, await scheduleOf(opts));
  } finally {
    run.release();
  }
}

/** The entries still to run (finished ones are kept unless their cause is retried); their folders made ready. */
function pendingOf(run: RunWriter, entries: RunEntry[], retryCauses: ReadonlySet<string>) {
  const pending: RunEntry[] = [];
  const retried: string[] = [];
  let done = 0;
  const causes = retryCauses.size
    ? new Map(readRun(run.runDir).tasks.map((t) => [t.key, t.cause]))
    : undefined;
  for (const e of entries) {
    const cause = causes?.get(e.key);
    if (run.isFinished(e.key) && !(cause && retryCauses.has(cause))) done++;
    else {
      if (run.isFinished(e.key)) {
        run.moveAsideFinished(e.key, 'retry');
        retried.push(e.key);
      } else run.moveAsidePartial(e.key);
      pending.push(e);
    }
  }
  // attempt-major: every task's first attempt before any second one (an interrupted run still covers the set)
  pending.sort((a, b) => (a.attempt ?? 1) - (b.attempt ?? 1));
  return { pending, retried, done };
}

/** The run's events to its log and to `onEvent` (with the events its task writers publish); a broken view is ignored. */
class RunEvents {
  private readonly unsubscribe: () => void;

  constructor(
    private readonly run: RunWriter,
    private readonly onEvent?: (event: RunEvent) => void,
  ) {
    this.unsubscribe = subscribeRunEvents(
      (e) => {
        if (!['run.started', 'run.progress', 'run.finished'].includes(e.kind)) this.tell(e);
      },
      { runId: run.runId },
    );
  }

  emit(e: RunEvent): void {
    this.run.event(e);
    this.tell(e);
  }

  close(): void {
    this.unsubscribe();
  }

  private tell(e: RunEvent): void {
    try {
      this.onEvent?.(e);
    } catch {
      // a broken progress view must not stop the run
    }
  }
}

/** Counts of the run's entries as they go, sent as `run.progress` events with an estimate of the time left. */
class Tally {
  running = 0;
  failed = 0;
  private readonly durations: number[] = [];

  constructor(
    private readonly events: RunEvents,
    private readonly runId: string,
    private readonly total: number,
    private readonly parallel: number,
    public done: number,
  ) {}

  ended(outcome: TaskOutcome): void {
    this.running--;
    if (outcome.state === 'cancelled') return;
    this.done++;
    this.durations.push(outcome.timingMs);
    if (failedStates.has(outcome.state)) this.failed++;
  }

  progress(): void {
    const { durations, done, running, failed, total } = this;
    const avg = durations.length ? durations.reduce((a, b) => a + b, 0) / durations.length : undefined;
    const remaining = total - done;
    this.events.emit({
      kind: 'run.progress',
      runId: this.runId,
      done,
      running,
      failed,
      total,
      ...(avg !== undefined
        ? { etaMs: Math.round((avg * remaining) / Math.min(this.parallel, Math.max(1, remaining))) }
        : {}),
    });
  }
}

async function executeHeld(run: RunWriter, entries: RunEntry[], s: Schedule): Promise<RunOutcome> {
  const events = new RunEvents(run, s.onEvent); // what moving folders aside publishes goes to onEvent too
  let pendings;
  try {
    pendings = pendingOf(run, entries, s.retryCauses);
  } catch (e) {
    events.close();
    throw e;
  }
  const { pending, retried, done } = pendings;
  events.emit({
    kind: 'run.started',
    runId: run.runId,
    at: new Date().toISOString(),
    tasks: run.manifest.tasks,
  });
  const tally = new Tally(events, run.runId, entries.length, s.parallel, done);
  tally.progress();
  const ran: TaskOutcome[] = [];
  const queue = [...pending];
  try {
    await Promise.all(
      Array.from({ length: Math.min(s.parallel, Math.max(1, pending.length)) }, (_, slot) =>
        work(slot, { run, queue, s, tally, ran }),
      ),
    );
  } finally {
    events.close();
    events.emit({ kind: 'run.finished', runId: run.runId, at: new Date().toISOString() });
  }
  return outcomeOf(run, entries.length, ran, retried);
}

/** One worker: takes entries from the queue until it is empty or the run stops, each task on its own slot. */
async function work(
  slot: number,
  w: { run: RunWriter; queue: RunEntry[]; s: Schedule; tally: Tally; ran: TaskOutcome[] },
): Promise<void> {
  const { run, s, tally } = w;
  for (;;) {
    if (s.signal.aborted) return;
    const entry = w.queue.shift();
    if (!entry) return;
    const { key, task } = entry;
    let writer;
    try {
      writer = run.openTask(key);
    } catch (e) {
      if (e instanceof TaskLockedError) continue; // another process writes it; never twice
      throw e;
    }
    tally.running++;
    tally.progress();
    let agent;
    try {
      agent = await agentForTask(s.agents, task);
    } catch (e) {
      tally.running--;
      writer.close();
      throw e;
    }
    const outcome = await runTask({
      task,
      taskKey: key,
      run,
      writer,
      agent,
      parts: s.parts,
      worker: slot,
      runSignal: s.signal,
      settings: s.settingsOf(task),
      ...(entry.attempt !== undefined ? { attempt: entry.attempt } : {}),
    });
    w.ran.push(outcome);
    tally.ended(outcome);
    tally.progress();
  }
}

/** The run as the reader sees its folder at the end, with what this invocation ran. */
function outcomeOf(run: RunWriter, total: number, ran: TaskOutcome[], retried: string[]): RunOutcome {
  const detail = readRun(run.runDir);
  const counts: Partial<Record<TaskState, number>> = {};
  for (const t of detail.tasks) counts[t.state] = (counts[t.state] ?? 0) + 1;
  return {
    runId: run.runId,
    runDir: run.runDir,
    tasks: detail.tasks,
    successRate: total ? detail.tasks.reduce((s, t) => s + (t.score ?? 0), 0) / total : 0,
    counts,
    cancelled: detail.tasks.some(
      (t) => t.state === 'cancelled' || t.state === 'pending' || t.state === 'running',
    ),
    ran,
    retried,
  };
}
