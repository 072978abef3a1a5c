// The one interface every agent (llm, oracle, noop, human) implements; the step loop knows nothing else.
import type { Action } from '../../shared/run';
import type { Task } from '../../shared/task';
import type { Environment } from '../env/environment';
import type { Observation } from '../observe/observation';
import type { ActionSpace } from '../../shared/spaces';

export interface AgentContext {
  task: Task;
  /** The instruction as shown to the agent. */
  instruction: string;
  actionSpace: ActionSpace;
  observationType: Observation['type'];
  maxSteps: number;
  /** Aborted when the run is stopped; agents pass it to their model calls. */
  signal: AbortSignal;
  /**
   * The task's machine, for agents that act on it beyond screen actions (the gold oracle closes a document,
   * puts the gold file in its place and reopens it). Model-driven agents never touch it.
   */
  environment?: Environment;
}

export interface AgentTurn {
  /** The whole reply as the agent gave it (model text, oracle line, …). */
  response: string;
  /** The action as given (pyautogui code or computer_13 dict), before parsing. */
  rawAction?: unknown;
  /** Parsed typed actions, ready to perform; empty when refused. */
  actions: Action[];
  /** Why the reply was refused (parser message for the model), if it was; nothing of it is performed. */
  refusal?: string;
  tokens?: { prompt: number; completion: number };
  costUsd?: number;
}

export interface StepFeedback {
  step: number;
  /** Refusal or error of the actions of that step, as told back to the model. */
  message: string;
}

export interface Agent {
  readonly name: string;
  /** Called once before the first step of a task. */
  start(context: AgentContext): Promise<void>;
  /** One turn: look at the observation, say what to do. `feedback` holds errors of the last steps. */
  next(observation: Observation, step: number, feedback: StepFeedback[]): Promise<AgentTurn>;
  /** Called once after the task (also after errors). */
  finish?(): Promise<void>;
  /** Settings to show and store in the run manifest; never secrets. */
  info?(): AgentInfo;
}

/** The agent cannot go on (model unreachable after retries, oracle file missing, …): the task is `agent_error`. */
export class AgentError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AgentError';
  }
}

/** What may be shown and stored about an agent (manifest `agent` / `model`): settings, never secrets. */
export interface AgentInfo {
  agent: string;
  /** Model name, or the agent's name for agents without a model (oracle, noop, human). */
  model: string;
  [setting: string]: unknown;
}
