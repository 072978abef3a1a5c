// A run's options, in the slices their readers take: the agent, what each task gets (resolved per task into its
// TaskRunSettings, task-plan.ts), the run's shape (stored in its plan), and how this process drives it. Entry
// points (the CLI, the workbench, the demo) give RunOptions; everything below them takes only its slice.
import type { GradingProfile, RunEvent } from '../../shared/run';
import type { ActionSpace } from '../../shared/spaces';
import type { Task } from '../../shared/task';
import { agentHoldsSecrets, type AgentOptions } from '../agents';
import type { Agent } from '../agents/agent';
import type { PriceTable } from '../price-table';
import { DEFAULT_ENV_SPEC, preflightEnvironment } from '../env/kinds';
import type { ObservationType } from '../observe/observation';
import type { AppCheck } from '../tasks/needs';
import type { RunnerParts } from './parts';

/** The agent of a run. */
export interface AgentChoice {
  /** Agent name in the agents registry (llm, oracle, noop, human), or a factory making one agent per task. */
  agent: string | ((task: Task) => Agent);
  /** Name stored in the manifest when `agent` is a factory. */
  agentName?: string;
  agentOptions?: AgentOptions;
  model?: string;
}

/** What each task of the run gets (taskSettings() resolves them for one task). */
export interface TaskOptions {
  observation?: ObservationType;
  actionSpace?: ActionSpace;
  /** A step limit, or `auto` (see limits.ts). Default 15. */
  maxSteps?: number | 'auto';
  /** Per-task time limit. Default 15 minutes. */
  taskTimeoutMs?: number;
  /** Screen size; default: the task set's declared one (task-set.json), else DEFAULT_SCREEN (shared/screen.ts). */
  screen?: { width: number; height: number };
  /** Environment spec (`local`, `local:1280x800`, `osworld://host:5000`; default local), kept in the manifest. */
  env?: string;
  /** Folder of the files tasks' setup would download (`--downloads`); nothing is fetched when given. */
  downloads?: string;
  tokenBudget?: number;
  waitMs?: number;
  appCheck?: AppCheck;
  /** Replies refused in a row that end a task as agent_error (`--max-refusals`; 0 = never). */
  maxRefusals?: number;
  /** Per-model prices for the attempts' cost, over the agent's own and the bundled ones (`--price`, `--prices`). */
  prices?: PriceTable;
}

/** The run as a whole: where it is written, how many attempts and workers, how it is graded, its engine. */
export interface RunShape {
  /** Workers (sandbox displays) at once. Default 1. */
  parallel?: number;
  /** Folder that holds run folders. Default ./results. */
  outDir?: string;
  /** The command line, stored in the manifest. */
  args?: string[];
  /** Accept sandboxes without namespace isolation for an agent holding a model key (`--allow-unisolated`). */
  allowUnisolated?: boolean;
  /** Attempts per task, each in a fresh environment (`--repeats`). Default 1. */
  repeats?: number;
  /** Grade under this profile instead of the one each task's shape implies (`--grading-profile`). */
  gradingProfile?: GradingProfile;
  /** Replaces parts of the engine (environments, setup, observation, grading). */
  parts?: Partial<RunnerParts>;
}

/** How this process drives the run: stopping it, watching it, what a resume runs again. */
export interface RunControl {
  /** Aborting stops the run cleanly: running tasks end `cancelled`, the run stays resumable. */
  signal?: AbortSignal;
  /** Every event of this run, as it is written. */
  onEvent?: (event: RunEvent) => void;
  /** On resume: run again the finished attempts whose cause is env_error (`--retry-env-errors`). */
  retryEnvErrors?: boolean;
  /** On resume: run again the finished attempts whose cause is grading_error (`--retry-grading-errors`). */
  retryGradingErrors?: boolean;
}

/** What creating a run reads (its manifest and plan are written from it). */
export type RunCreation = AgentChoice & TaskOptions & RunShape;

/** Everything an entry point gives to run tasks. */
export type RunOptions = RunCreation & RunControl;

/** What one attempt of a task needs beyond the run: its agent, its settings, its grading profile (queue jobs). */
export type AttemptOptions = AgentChoice & TaskOptions & Pick<RunShape, 'gradingProfile'>;

/** A fresh agent for one task: the registered one by name, or the factory's (also used by queue workers). */
export async function agentForTask(
  opts: Pick<AgentChoice, 'agent' | 'model' | 'agentOptions'>,
  task: Task,
): Promise<Agent> {
  if (typeof opts.agent !== 'string') return opts.agent(task);
  const { createAgent } = await import('../agents'); // loaded only when a registered agent is asked for
  return createAgent(opts.agent, { model: opts.model, ...opts.agentOptions });
}

/** The environment kind's checks before anything is written (e.g. no model key on an unisolated sandbox). */
export function preflight(
  opts: Pick<RunCreation, 'agent' | 'env' | 'allowUnisolated' | 'parts' | 'observation' | 'actionSpace'>,
): void {
  if (opts.parts?.createEnvironment) return;
  preflightEnvironment(opts.env ?? DEFAULT_ENV_SPEC, {
    agentHoldsSecrets: typeof opts.agent === 'string' && agentHoldsSecrets(opts.agent),
    allowUnisolated: !!opts.allowUnisolated,
    // a kind that cannot give the observation or perform the action space says so before anything is written
    observation: opts.observation,
    actionSpace: opts.actionSpace,
  });
}
