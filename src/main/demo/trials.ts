// One trial of the demo or the self-test: a set of tasks run by one kind of agent into one run folder.
import type { RunEvent } from '../../shared/run';
import type { Task } from '../../shared/task';
import type { Agent } from '../agents/agent';
import type { ObservationType } from '../observe/observation';
import type { RunnerParts } from '../runner/parts';
import { runTasks } from '../runner/scheduler';
import { taskKeyOf } from '../store/layout';
import type { TrialName, TrialResult } from './verdict';

export interface TrialOptions {
  /** Folder the run folder is created in. */
  outDir: string;
  parallel?: number;
  /** Registered agent name, or a factory making the agent for each task. */
  agent: string | ((task: Task) => Agent);
  /** Name of the agent in the run's manifest and folder layout. */
  agentName: string;
  /** The command line, kept in the manifest. */
  args?: string[];
  signal?: AbortSignal;
  onEvent?: (event: RunEvent) => void;
  /** Per-task time limit; the demo tasks take well under 30 s each. */
  taskTimeoutMs?: number;
  screen?: { width: number; height: number };
  /** Environment spec (`local`, `osworld://host:5000`); default local. */
  env?: string;
  /** What the agent sees each step; default screenshots. */
  observation?: ObservationType;
  /** Replaces parts of the engine (e.g. grading under a profile). */
  parts?: Partial<RunnerParts>;
}

export interface TrialRun {
  runDir: string;
  /** By task key (`<domain>/<id>`). */
  results: Map<string, TrialResult>;
  cancelled: boolean;
}

/** Runs the tasks with one agent; every task's state, score and error, keyed by task. */
export async function runTrial(trial: TrialName, tasks: Task[], options: TrialOptions): Promise<TrialRun> {
  const outcome = await runTasks(tasks, {
    agent: options.agent,
    agentName: options.agentName,
    outDir: options.outDir,
    parallel: options.parallel ?? 1,
    args: options.args ?? [],
    signal: options.signal,
    onEvent: options.onEvent,
    taskTimeoutMs: options.taskTimeoutMs ?? 120_000,
    // absent: the demo's task-set.json (resources/demo) gives the size, as for every other way of running them
    ...(options.screen ? { screen: options.screen } : {}),
    ...(options.env !== undefined ? { env: options.env } : {}),
    ...(options.observation ? { observation: options.observation } : {}),
    parts: options.parts,
  });
  const results = new Map<string, TrialResult>();
  for (const item of outcome.tasks) {
    results.set(item.key, {
      trial,
      state: item.state,
      ...(item.score !== undefined ? { score: item.score } : {}),
      ...(item.error ? { error: item.error } : {}),
    });
  }
  for (const t of tasks) {
    const key = taskKeyOf(t);
    if (!results.has(key))
      results.set(key, { trial, state: 'pending', error: 'the run did not record this task' });
  }
  return { runDir: outcome.runDir, results, cancelled: outcome.cancelled };
}
