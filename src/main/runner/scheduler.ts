// Runs a set of tasks: N workers (each its own sandbox display per task), one run folder, resumable. With
// `repeats` N > 1 every task runs N times, each attempt its own manifest entry and folder (store/layout.ts).
import type { RunEvent, RunTaskItem, TaskState } from '../../shared/run';
import type { Task } from '../../shared/task';
import { agentHoldsSecrets, type AgentOptions } from '../agents';
import type { Agent } from '../agents/agent';
import type { ObservationType } from '../observe/observation';
import { runEvents } from '../store/events';
import { readRun } from '../store/reader';
import { RunWriter, TaskLockedError } from '../store/run-writer';
import {
  attemptDirOf,
  attemptKeyOf,
  entryOf,
  taskDirFor,
  taskKeyOf,
  type ManifestTaskInfo,
  type RunManifest,
} from '../store/layout';
import type { PriceTable } from '../price-table';
import { DEFAULT_TASK_TIMEOUT_MS, maxStepsFor } from './limits';
import type { AppCheck } from '../tasks/needs';
import { DEFAULT_ENV_SPEC, preflightEnvironment } from '../env/kinds';
import { sweepLeftovers } from '../env/leftovers';
import { checkedEnvironment, partsWith, withEnvironment, type RunnerParts } from './parts';
import { runTask, type TaskOutcome, type TaskRunSettings } from './step-loop';
import { runScreens, screenFor } from './screen';
import type { GradingProfile } from '../../shared/run';
import { gradingUnder } from '../evaluators/grade';
import { readRunPlan, writeRunPlan, type RunPlan } from '../store/run-plan';
import { mergedAgentOptions, planOf } from './run-plan';
import type { ActionSpace } from '../../shared/spaces';

export interface RunOptions {
  /** Agent name in the agents registry (llm, oracle, noop, human), or a factory making one agent per task. */
  agent: string | ((task: Task) => Agent);
  /** Name stored in the manifest when `agent` is a factory. */
  agentName?: string;
  agentOptions?: AgentOptions;
  model?: string;
  observation?: ObservationType;
  actionSpace?: ActionSpace;
  /** Workers (sandbox displays) at once. Default 1. */
  parallel?: number;
  /** A step limit, or `auto` (see limits.ts). Default 15. */
  maxSteps?: number | 'auto';
  /** Per-task time limit. Default 15 minutes. */
  taskTimeoutMs?: number;
  /** Folder that holds run folders. Default ./results. */
  outDir?: string;
  /** The command line, stored in the manifest. */
  args?: string[];
  /** Screen size; default: the task set's declared one (task-set.json), else DEFAULT_SCREEN (shared/screen.ts). */
  screen?: { width: number; height: number };
  /** Environment spec (`local`, `local:1280x800`, `osworld://host:5000`; default local), kept in the manifest. */
  env?: string;
  /** Folder of the files tasks' setup would download (`--downloads`); nothing is fetched when given. */
  downloads?: string;
  /** Accept sandboxes without namespace isolation for an agent holding a model key (`--allow-unisolated`). */
  allowUnisolated?: boolean;
  tokenBudget?: number;
  waitMs?: number;
  appCheck?: AppCheck;
  /** Aborting stops the run cleanly: running tasks end `cancelled`, the run stays resumable. */
  signal?: AbortSignal;
  /** Every event of this run, as it is written. */
  onEvent?: (event: RunEvent) => void;
  /** Replaces parts of the engine (environments, setup, observation, grading). */
  parts?: Partial<RunnerParts>;
  /** Attempts per task, each in a fresh environment (`--repeats`). Default 1. */
  repeats?: number;
  /** Replies refused in a row that end a task as agent_error (`--max-refusals`; 0 = never). */
  maxRefusals?: number;
  /** Per-model prices for the attempts' cost, over the agent's own and the bundled ones (`--price`, `--prices`). */
  prices?: PriceTable;
  /** Grade under this profile instead of the one each task's shape implies (`--grading-profile`). */
  gradingProfile?: GradingProfile;
  /** On resume: run again the finished attempts whose cause is env_error (`--retry-env-errors`). */
  retryEnvErrors?: boolean;
  /** On resume: run again the finished attempts whose cause is grading_error (`--retry-grading-errors`). */
  retryGradingErrors?: boolean;
}

/** One entry of a run: a task, or one attempt of it in a repeated run. */
export interface RunEntry {
  key: string;
  task: Task;
  attempt?: number;
}

/** Most attempts per task a run takes. */
export const MAX_REPEATS = 100;

/** The run's entries: each task once, or (repeats N > 1) attempts 1..N of each task under `<key>#<n>`. */
export function entriesOf(tasks: Task[], repeats = 1): RunEntry[] {
  if (!Number.isInteger(repeats) || repeats < 1 || repeats > MAX_REPEATS)
    throw new Error(`repeats ${repeats}: a whole number from 1 to ${MAX_REPEATS}`);
  if (repeats === 1) return tasks.map((task) => ({ key: taskKeyOf(task), task }));
  return tasks.flatMap((task) =>
    Array.from({ length: repeats }, (_, i) => ({
      key: attemptKeyOf(taskKeyOf(task), i + 1),
      task,
      attempt: i + 1,
    })),
  );
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

const failedStates: ReadonlySet<TaskState> = new Set([
  'timed_out',
  'setup_error',
  'env_error',
  'agent_error',
]);

function taskInfo(
  entry: RunEntry,
  run: Parameters<typeof taskDirFor>[0],
  screen?: { width: number; height: number },
): ManifestTaskInfo {
  const { task, attempt } = entry;
  const dir = taskDirFor(run, task.domain, task.id);
  return {
    dir: attempt === undefined ? dir : attemptDirOf(dir, attempt),
    ...(attempt === undefined ? {} : { task: taskKeyOf(task), attempt }),
    file: task.file,
    instruction: task.instruction,
    app: task.app,
    tags: task.tags,
    interface: task.interface,
    style: task.style,
    difficulty: task.difficulty,
    actionNumber: task.actionNumber,
    ...(screen ? { screen } : {}),
  };
}

function checkUnique(tasks: Task[]): void {
  const seen = new Map<string, string>();
  for (const t of tasks) {
    const key = taskKeyOf(t);
    const other = seen.get(key);
    if (other !== undefined)
      throw new Error(`two tasks have the key ${key}: ${other} and ${t.file}; a run holds each task once`);
    seen.set(key, t.file);
  }
}

/** A fresh agent for one task: the registered one by name, or the factory's (also used by queue workers). */
export async function agentForTask(
  opts: Pick<RunOptions, 'agent' | 'model' | 'agentOptions'>,
  task: Task,
): Promise<Agent> {
  if (typeof opts.agent !== 'string') return opts.agent(task);
  const { createAgent } = await import('../agents'); // loaded only when a registered agent is asked for
  return createAgent(opts.agent, { model: opts.model, ...opts.agentOptions });
}

/** The step loop's settings for one task of a run (also used by queue workers). */
export function taskSettings(task: Task, opts: RunOptions): TaskRunSettings {
  return {
    observation: opts.observation ?? 'screenshot',
    actionSpace: opts.actionSpace ?? 'pyautogui',
    maxSteps: maxStepsFor(task, opts.maxSteps),
    ...(opts.maxRefusals !== undefined ? { maxRefusals: opts.maxRefusals } : {}),
    ...(opts.model !== undefined ? { model: opts.model } : {}),
    ...(opts.prices !== undefined ? { prices: opts.prices } : {}),
    timeoutMs: opts.taskTimeoutMs ?? DEFAULT_TASK_TIMEOUT_MS,
    screen: screenFor(task, opts),
    tokenBudget: opts.tokenBudget,
    waitMs: opts.waitMs,
    appCheck: opts.appCheck,
    downloads: opts.downloads,
  };
}

/** The environment kind's checks before anything is written (e.g. no model key on an unisolated sandbox). */
export function preflight(opts: RunOptions): void {
  if (opts.parts?.createEnvironment) return;
  preflightEnvironment(opts.env ?? DEFAULT_ENV_SPEC, {
    agentHoldsSecrets: typeof opts.agent === 'string' && agentHoldsSecrets(opts.agent),
    allowUnisolated: !!opts.allowUnisolated,
  });
}

/** Runs `tasks` into a new run folder under `opts.outDir`. */
export async function runTasks(tasks: Task[], opts: RunOptions): Promise<RunOutcome> {
  const run = await createRun(tasks, opts);
  return execute(run, entriesOf(tasks, opts.repeats ?? 1), opts);
}

/**
 * Checks the set and writes the run's folder and manifest (held by this process until release()); `runId` names
 * it, `queue` records the queue its tasks go through.
 */
export async function createRun(
  tasks: Task[],
  opts: RunOptions,
  naming: { runId?: string; queue?: string } = {},
): Promise<RunWriter> {
  checkUnique(tasks);
  const entries = entriesOf(tasks, opts.repeats ?? 1);
  preflight(opts);
  const observation = opts.observation ?? 'screenshot';
  const actionSpace = opts.actionSpace ?? 'pyautogui';
  const agentName = typeof opts.agent === 'string' ? opts.agent : (opts.agentName ?? 'custom');
  const layout = { actionSpace, observation, agent: agentName, model: opts.model };
  const env = opts.env === undefined ? undefined : checkedEnvironment(opts.env);
  const screens = runScreens(entries, opts);
  const run = await RunWriter.create(
    opts.outDir ?? 'results',
    {
      args: opts.args ?? [],
      agent: agentName,
      ...(opts.model ? { model: opts.model } : {}),
      actionSpace,
      observation,
      tasks: entries.map((e) => e.key),
      taskInfo: Object.fromEntries(
        entries.map((e) => [e.key, taskInfo(e, layout, screens.others.get(e.key))]),
      ),
      screen: screens.screen,
      ...((opts.repeats ?? 1) > 1 ? { repeats: opts.repeats } : {}),
      ...(opts.maxRefusals !== undefined ? { maxRefusals: opts.maxRefusals } : {}),
      ...(opts.prices && Object.keys(opts.prices).length ? { prices: opts.prices } : {}),
      maxSteps: opts.maxSteps ?? 15,
      taskTimeoutMs: opts.taskTimeoutMs ?? DEFAULT_TASK_TIMEOUT_MS,
      ...(env ? { env: env.stored } : {}),
      ...(naming.queue ? { queue: naming.queue } : {}),
    },
    new Date(),
    naming.runId === undefined ? {} : { runId: naming.runId },
  );
  // the settings resolved once, for --resume and the queue's workers (store/run-plan.ts)
  writeRunPlan(run.runDir, planOf(opts));
  return run;
}

/**
 * Continues an interrupted run: finished tasks (summary.json present) are kept; unfinished ones have their
 * partial folder moved aside (`<task>.partial-<n>`) and run again from a clean start. The run's own settings
 * (agent, model, observation, action space, limits, environment) come from its manifest, and the rest of its
 * plan (agent options, downloads, grading profile, …) from run-plan.json; `opts` may override them (an `env`
 * given here replaces the stored one, which has no secrets such as a token).
 */
export async function resumeRun(runDir: string, opts: ResumeGiven): Promise<RunOutcome> {
  // open() takes the run's lock before it writes anything: a second resume of a live run is refused untouched
  const run = await RunWriter.open(runDir);
  const m = run.manifest;
  const entries: RunEntry[] = [];
  let plan;
  try {
    plan = readRunPlan(runDir);
    const parts = await partsWith(opts.parts);
    const files = m.tasks.map((k) => m.taskInfo?.[k]?.file);
    const missing = m.tasks.filter((_, i) => !files[i]);
    if (missing.length)
      throw new Error(`${runDir}/manifest.json: /taskInfo has no task file for ${missing.join(', ')}`);
    const loaded = await parts.loadTasks([...new Set(files as string[])]);
    const byKey = new Map(loaded.tasks.map((t) => [taskKeyOf(t), t]));
    for (const k of m.tasks) {
      const { taskKey, attempt } = entryOf(m, k);
      const t = byKey.get(taskKey);
      if (!t)
        throw new Error(`cannot resume: task ${taskKey} could not be read from ${m.taskInfo?.[k]?.file}`);
      entries.push({ key: k, task: t, ...(attempt !== undefined ? { attempt } : {}) });
    }
  } catch (e) {
    run.release();
    throw e;
  }
  return execute(run, entries, optionsForResume(m, plan, opts));
}

type ResumeGiven = Omit<
  RunOptions,
  'agent' | 'observation' | 'actionSpace' | 'model' | 'maxSteps' | 'outDir' | 'repeats'
> & {
  agent?: RunOptions['agent'];
};

/**
 * The options a resumed run runs with: its manifest's settings and its plan's (run-plan.json; absent for a run
 * written by an older Proctor), under the ones given now.
 */
export function optionsForResume(m: RunManifest, plan: RunPlan | undefined, opts: ResumeGiven): RunOptions {
  const downloads = opts.downloads ?? plan?.downloads;
  return {
    ...opts,
    ...(plan?.parallel !== undefined && opts.parallel === undefined ? { parallel: plan.parallel } : {}),
    ...(downloads !== undefined ? { downloads } : {}),
    ...(plan?.gradingProfile && opts.gradingProfile === undefined
      ? { gradingProfile: plan.gradingProfile }
      : {}),
    ...(plan?.allowUnisolated && opts.allowUnisolated === undefined ? { allowUnisolated: true } : {}),
    agentOptions: {
      ...mergedAgentOptions(plan?.agentOptions ?? {}, opts.agentOptions ?? {}),
      ...(downloads !== undefined ? { downloads } : {}),
    },
    ...(m.maxRefusals !== undefined && opts.maxRefusals === undefined ? { maxRefusals: m.maxRefusals } : {}),
    prices: { ...m.prices, ...opts.prices },
    agent: opts.agent ?? m.agent,
    agentName: m.agent,
    model: m.model,
    observation: m.observation,
    actionSpace: m.actionSpace,
    maxSteps: m.maxSteps,
    taskTimeoutMs: opts.taskTimeoutMs ?? m.taskTimeoutMs,
    env: opts.env ?? m.env,
    // the run's screen, unless some tasks had their own (then each task's declaration gives it again)
    ...((opts.screen ??
    (m.screen && !Object.values(m.taskInfo ?? {}).some((i) => i.screen) ? m.screen : undefined))
      ? { screen: opts.screen ?? m.screen }
      : {}),
  };
}

/** Runs the tasks of a run this process holds, and releases the run's lock however it ends. */
async function execute(run: RunWriter, entries: RunEntry[], opts: RunOptions): Promise<RunOutcome> {
  try {
    return await executeHeld(run, entries, opts);
  } finally {
    run.release();
  }
}

async function executeHeld(run: RunWriter, entries: RunEntry[], opts: RunOptions): Promise<RunOutcome> {
  preflight(opts);
  // What SIGKILLed runs left behind (sandbox homes, display folders) goes before this run adds its own.
  await sweepLeftovers();
  const parts = withEnvironment(
    await partsWith({ ...gradingUnder(opts.gradingProfile), ...opts.parts }),
    opts.env,
  );
  const signal = opts.signal ?? new AbortController().signal;
  const emit = (e: RunEvent) => {
    run.event(e);
    try {
      opts.onEvent?.(e);
    } catch {
      // a broken progress view must not stop the run
    }
  };
  // Events written by the task writers also go to onEvent.
  const forward = (e: RunEvent) => {
    if (
      e.runId === run.runId &&
      e.kind !== 'run.started' &&
      e.kind !== 'run.progress' &&
      e.kind !== 'run.finished'
    )
      try {
        opts.onEvent?.(e);
      } catch {
        // as above
      }
  };
  runEvents.on('event', forward);

  const pending: RunEntry[] = [];
  const retried: string[] = [];
  let done = 0;
  let failed = 0;
  const retryCauses = new Set([
    ...(opts.retryEnvErrors ? ['env_error'] : []),
    ...(opts.retryGradingErrors ? ['grading_error'] : []),
  ]);
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
  const total = entries.length;
  emit({ kind: 'run.started', runId: run.runId, at: new Date().toISOString(), tasks: run.manifest.tasks });
  const durations: number[] = [];
  let running = 0;
  const parallel = Math.max(1, Math.min(opts.parallel ?? 1, 64));
  const progress = () => {
    const avg = durations.length ? durations.reduce((a, b) => a + b, 0) / durations.length : undefined;
    const remaining = total - done;
    emit({
      kind: 'run.progress',
      runId: run.runId,
      done,
      running,
      failed,
      total,
      ...(avg !== undefined
        ? { etaMs: Math.round((avg * remaining) / Math.min(parallel, Math.max(1, remaining))) }
        : {}),
    });
  };
  progress();

  const ran: TaskOutcome[] = [];
  const queue = [...pending];
  const worker = async (slot: number) => {
    for (;;) {
      if (signal.aborted) return;
      const entry = queue.shift();
      if (!entry) return;
      const { key, task } = entry;
      let writer;
      try {
        writer = run.openTask(key);
      } catch (e) {
        if (e instanceof TaskLockedError) continue; // another process writes it; never twice
        throw e;
      }
      running++;
      progress();
      let agent: Agent;
      try {
        agent = await agentForTask(opts, task);
      } catch (e) {
        running--;
        writer.close();
        throw e;
      }
      const outcome = await runTask({
        task,
        taskKey: key,
        run,
        writer,
        agent,
        parts,
        worker: slot,
        runSignal: signal,
        settings: taskSettings(task, opts),
        ...(entry.attempt !== undefined ? { attempt: entry.attempt } : {}),
      });
      running--;
      ran.push(outcome);
      if (outcome.state !== 'cancelled') {
        done++;
        durations.push(outcome.timingMs);
        if (failedStates.has(outcome.state)) failed++;
      }
      progress();
    }
  };
  try {
    await Promise.all(
      Array.from({ length: Math.min(parallel, Math.max(1, pending.length)) }, (_, i) => worker(i)),
    );
  } finally {
    runEvents.off('event', forward);
    emit({ kind: 'run.finished', runId: run.runId, at: new Date().toISOString() });
  }
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
