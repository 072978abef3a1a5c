// Runs a set of tasks into one run folder, resumable: creates the run (manifest and plan) or reopens it, then
// hands its entries to execute.ts. With `repeats` N > 1 every task runs N times, each attempt its own manifest
// entry and folder (store/layout.ts).
import type { Task } from '../../shared/task';
import { readRunPlan, writeRunPlan, type RunPlan } from '../store/run-plan';
import { RunWriter } from '../store/run-writer';
import {
  attemptDirOf,
  attemptKeyOf,
  entryOf,
  taskDirFor,
  taskKeyOf,
  type ManifestTaskInfo,
  type RunManifest,
} from '../store/layout';
import { DEFAULT_TASK_TIMEOUT_MS } from './limits';
import { checkedEnvironment, partsWith } from './parts';
import { execute, type RunEntry, type RunOutcome } from './execute';
import { preflight, type RunCreation, type RunOptions } from './run-options';
import { runScreens } from './screen';
import { mergedAgentOptions, planOf } from './run-plan';

export type { RunEntry, RunOutcome } from './execute';
export type { RunOptions, RunCreation } from './run-options';
export { agentForTask, preflight } from './run-options';
export { taskSettings } from './task-plan';

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
  opts: RunCreation,
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
