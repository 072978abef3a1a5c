// The last stage of a task: how the attempt ended (state, cause, score, cost) written as its summary and
// returned to the scheduler. A cancelled attempt gets no summary, so `--resume` redoes it.
import type { AttemptCause, AttemptCost, TaskState } from '../../shared/run';
import type { Task } from '../../shared/task';
import type { Agent } from '../agents/agent';
import { causeOf } from '../store/attempt-cause';
import type { TaskResults, TaskWriter } from '../store/run-writer';
import type { TaskAttempt } from './attempt';
import type { Graded } from './grading';
import type { CostPlan } from './task-plan';
import type { Usage } from './usage';

export interface TaskOutcome {
  taskKey: string;
  state: TaskState;
  score: number;
  steps: number;
  tokens: number;
  timingMs: number;
  error?: string;
  /** Why the attempt ended; undefined when cancelled. */
  cause?: AttemptCause;
  cost: AttemptCost;
  /** Attempt number of a repeated run. */
  attempt?: number;
}

/** How an attempt ended, as its stages left it. */
export interface Ending {
  state: TaskState;
  error?: string;
  messages: string[];
  graded?: Graded;
}

/** Writes the attempt's summary (none when cancelled) and returns its outcome. */
export async function recordOutcome(
  a: TaskAttempt,
  ending: Ending,
  who: { task: Task; taskKey: string; attempt?: number; writer: TaskWriter; agent: Agent; usage: Usage },
  plan: CostPlan,
  wallMs: number,
): Promise<TaskOutcome> {
  const { state, error, messages, graded } = ending;
  const { writer, usage } = who;
  const score = graded?.score ?? 0;
  const cause = causeOf({
    state,
    score,
    ...(graded ? { verdict: graded.verdict } : {}),
    ...(state === 'timed_out' ? { timedOutIn: a.timedOutIn } : {}),
  });
  const cost: AttemptCost = usage.cost(who.agent, plan, { envMs: a.envMs, wallMs });
  const attempt = who.attempt !== undefined ? { attempt: who.attempt } : {};
  const results: TaskResults = {
    score,
    eval_error: graded?.evalError ?? null,
    state,
    messages,
    total_tokens: usage.tokens,
    total_timing: wallMs / 1000,
    steps: writer.stepCount,
    ...(cause ? { cause } : {}),
    ...attempt,
    cost,
  };
  const outcome: TaskOutcome = {
    taskKey: who.taskKey,
    state,
    score,
    steps: writer.stepCount,
    tokens: usage.tokens,
    timingMs: wallMs,
    error,
    cost,
    ...(cause ? { cause } : {}),
    ...attempt,
  };
  if (state === 'cancelled') await writer.finish('cancelled', undefined, error);
  else
    await writer.finish(
      state,
      { taskFields: who.task.raw, results },
      error ?? graded?.evalError ?? undefined,
    );
  return outcome;
}
