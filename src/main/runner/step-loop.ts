// The step loop of one task: setup → (observe → agent → perform → store)* → postconfig → grade → summary, as
// stages each handed only its slice of the task's plan (task-plan.ts): prepare.ts, steps.ts, grading.ts,
// outcome.ts. Every way a task can end maps to one TaskState and one cause (store/attempt-cause.ts); the
// attempt's tokens, model cost, environment and wall time are recorded beside it. Nothing here throws past
// runTask except a store failure.
import { join } from 'node:path';
import { rm } from 'node:fs/promises';
import type { Task } from '../../shared/task';
import { AgentError, type Agent } from '../agents/agent';
import type { RunWriter, TaskWriter } from '../store/run-writer';
import { message, Stop, TaskAttempt } from './attempt';
import { gradeAttempt } from './grading';
import { recordOutcome, type Ending, type TaskOutcome } from './outcome';
import type { RunnerParts } from './parts';
import { prepareEnvironment } from './prepare';
import { runAgentSteps, startAgent } from './steps';
import type { TaskRunSettings } from './task-plan';
import { Usage } from './usage';

export type { TaskOutcome } from './outcome';
export { DEFAULT_MAX_REFUSALS, type TaskRunSettings } from './task-plan';

/**
 * Runs one task on a fresh environment and records everything through `writer`. `runSignal` aborting means the
 * run is stopping: the task ends `cancelled` and gets no summary (so `--resume` redoes it).
 */
export async function runTask(input: {
  task: Task;
  taskKey: string;
  run: RunWriter;
  writer: TaskWriter;
  agent: Agent;
  parts: RunnerParts;
  settings: TaskRunSettings;
  worker: number;
  runSignal: AbortSignal;
  /** Attempt number (1..N) of a repeated run; absent for a single attempt. */
  attempt?: number;
}): Promise<TaskOutcome> {
  const { task, taskKey, run, writer, agent, parts, settings } = input;
  const started = Date.now();
  const a = new TaskAttempt(input.runSignal, settings, task.id, run, taskKey);
  writer.started();
  const usage = new Usage();
  const ending: Ending = { state: 'success', messages: [] };
  try {
    const env = await prepareEnvironment(a, task, parts, settings, input.worker);
    await startAgent(a, agent, task, env, settings);
    const end = await runAgentSteps({ a, env, agent, observe: parts.observe, writer, usage, plan: settings });
    if (!end.finished) {
      ending.state = 'max_steps_error';
      ending.messages.push(`the step limit (${settings.maxSteps}) was reached before DONE or FAIL`);
    }
    ending.graded = await gradeAttempt(a, env, task, parts, settings, {
      taskKey,
      cacheDir: join(writer.dir, 'cache'),
      lastAction: end.lastAction,
      verdicts: run,
    });
  } catch (e) {
    stopped(e, ending, writer);
  } finally {
    await endAttempt(a, ending.messages);
  }
  const who = { task, taskKey, writer, agent, usage, attempt: input.attempt };
  return recordOutcome(a, ending, who, settings, Date.now() - started);
}

/** The state and error of an attempt a stage stopped (or a part threw past). */
function stopped(e: unknown, ending: Ending, writer: TaskWriter): void {
  const stop =
    e instanceof Stop
      ? e
      : new Stop(e instanceof AgentError ? 'agent_error' : 'env_error', message(e), { cause: e });
  ending.state = stop.state;
  ending.error = stop.message;
  if (stop.state !== 'skipped' && stop.state !== 'cancelled') writer.recordError(stop.message);
  ending.messages.push(stop.message);
}

/** Stops the attempt's clock, finishes its agent, closes its environment and removes its sandbox home. */
async function endAttempt(a: TaskAttempt, messages: string[]): Promise<void> {
  a.dispose();
  if (a.agent) await a.agent.finish?.().catch((e) => messages.push(`agent finish: ${message(e)}`));
  a.noteIncidents(); // a task that stopped early
  const env = a.env;
  if (env) await a.inEnv(() => env.close()).catch((e) => messages.push(`environment close: ${message(e)}`));
  if (a.home) await rm(a.home, { recursive: true, force: true }).catch(() => undefined);
}
