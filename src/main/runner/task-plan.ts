// What one task of a run gets, in the slices each stage of the step loop reads: the environment it starts on,
// what its agent is asked and shown, its limits, how its model's cost is priced and what grading needs.
import type { PriceTable } from '../price-table';
import type { ObservationType } from '../observe/observation';
import type { AppCheck } from '../tasks/needs';
import type { ActionSpace } from '../../shared/spaces';
import type { Task } from '../../shared/task';
import { DEFAULT_TASK_TIMEOUT_MS, maxStepsFor } from './limits';
import type { AgentChoice, TaskOptions } from './run-options';
import { screenFor } from './screen';

/** The environment a task starts on and its setup. */
export interface EnvironmentPlan {
  screen: { width: number; height: number };
  /** Folder of files the task's setup would download (--downloads); nothing is fetched when given. */
  downloads?: string;
  /** Which apps are there (a task needing a missing one is skipped). */
  appCheck?: AppCheck;
}

/** What the agent is shown each step and the actions it answers in. */
export interface ObservationPlan {
  observation: ObservationType;
  actionSpace: ActionSpace;
  tokenBudget?: number;
}

/** How far and how long a task may go. */
export interface StepLimits {
  maxSteps: number;
  timeoutMs: number;
  /** How long a WAIT action waits (ms). Default 1000. */
  waitMs?: number;
  /** Replies refused in a row that end the task as agent_error (0 = never). Default DEFAULT_MAX_REFUSALS. */
  maxRefusals?: number;
}

/** What grading reads besides the environment (the grading profile is applied to the run's grading part). */
export interface GradingPlan {
  /** Folder of the files getters would download (--downloads), as setup's. */
  downloads?: string;
}

/** How the attempt's model cost is priced. */
export interface CostPlan {
  /** The run's model (priced by name); else the agent's own `info().model`. */
  model?: string;
  /** Per-model prices given for the run (`--price`, `--prices`), before the agent's own and the bundled ones. */
  prices?: PriceTable;
}

/** Everything one task gets: the union of the stages' slices. */
export type TaskRunSettings = EnvironmentPlan & ObservationPlan & StepLimits & GradingPlan & CostPlan;

/** Replies refused in a row (unparseable or unsafe output) after which the agent is taken to be broken. */
export const DEFAULT_MAX_REFUSALS = 5;

/** The settings of one task of a run, from the run's options (also used by queue workers). */
export function taskSettings(task: Task, opts: TaskOptions & Pick<AgentChoice, 'model'>): TaskRunSettings {
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
