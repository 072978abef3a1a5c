// The parts the runner drives, behind one seam: environments, setup, observation, grading, task loading. The
// defaults load the engine's own modules (environments through the environments registry, by the run's spec);
// code (tests, the demo, the server) may replace any of them.
import type { RuleVerdict, SetupStepTiming } from '../../shared/run';
import type { Problem, SetupStep, Task } from '../../shared/task';
import type { Environment } from '../env/environment';
import { observe as observeScreen, warmObservation } from '../observe';
import type { Observation, ObservationType } from '../observe/observation';
import { loadTasks } from '../tasks/reader';
import {
  checkEnvSpec,
  createEnvironment,
  DEFAULT_ENV_SPEC,
  storableEnvSpec,
  type EnvironmentRequest as KindRequest,
} from '../env/kinds';
import { runSetupSteps } from '../setup';
import { gradeTask } from '../evaluators/grade';

export interface EnvironmentRequest extends KindRequest {
  /** The run's environment spec (`local`, `local:1280x800`, `osworld://host:5000`); default `local`. */
  env?: string;
}

export interface SetupContext {
  taskDir: string;
  task: Task;
  signal: AbortSignal;
  /** Folder of files the setup would download (--downloads). */
  downloads?: string;
  /** Each step's time and check as it ends (the step loop records them as `task.setup` events). */
  onStep?: (step: SetupStepTiming) => void;
}

export interface GradeContext {
  env: Environment;
  task: Task;
  cacheDir: string;
  /** Folder of the files getters would download (--downloads), as setup's. */
  downloads?: string;
  /** `FAIL` / `DONE` when the agent ended with it (infeasible tasks score 1 only on FAIL). */
  lastAction?: string;
  /** Runs the task's postconfig on the environment (the grader calls it before its checks). */
  runPostSetup: (steps: SetupStep[]) => Promise<void>;
  signal: AbortSignal;
}

export interface RunnerParts {
  createEnvironment(request: EnvironmentRequest): Promise<Environment>;
  runSetup(steps: SetupStep[], env: Environment, context: SetupContext): Promise<void>;
  observe(env: Environment, type: ObservationType, options: { tokenBudget?: number }): Promise<Observation>;
  grade(task: Task, context: GradeContext): Promise<RuleVerdict>;
  loadTasks(paths: string[]): Promise<{ tasks: Task[]; problems: Problem[]; files: number }>;
}

let defaults: Promise<RunnerParts> | undefined;

/** The engine's own parts: the environments registry, the setup registry, observations, the evaluators. */
export function defaultParts(): Promise<RunnerParts> {
  defaults ??= Promise.resolve({
    async createEnvironment({ env, ...request }) {
      const created = await createEnvironment(env ?? DEFAULT_ENV_SPEC, request);
      // The observation's one-time work (the tokenizer, the marks' digits for this screen) is done while the
      // task's setup runs; a failure is left to the first observation, which reports it.
      created
        .screen()
        .then((s) => warmObservation(s.height))
        .catch(() => undefined);
      return created;
    },
    async runSetup(steps, env, ctx) {
      if (steps.length) await runSetupSteps(steps, env, ctx);
    },
    // Without a screen (a shell-only environment, CLI tasks) the agent sees no picture, only its feedback.
    observe: (env, type, o) =>
      env.capabilities.has('screenshot')
        ? observeScreen(env, type, o)
        : Promise.resolve({ type, bindings: {} }),
    grade: (task, ctx) => gradeTask(task, ctx),
    loadTasks,
  });
  return defaults;
}

/** The default parts with some replaced. */
export async function partsWith(overrides: Partial<RunnerParts> = {}): Promise<RunnerParts> {
  return { ...(await defaultParts()), ...overrides };
}

/** The spec checked by its kind (an unknown kind or a bad size is an error before the run starts) and the form stored in the manifest. */
export function checkedEnvironment(spec: string): { spec: string; stored: string } {
  checkEnvSpec(spec);
  return { spec, stored: storableEnvSpec(spec) };
}

/** The parts with every environment asked for on the run's spec (a request that names its own keeps it). */
export function withEnvironment(parts: RunnerParts, spec: string | undefined): RunnerParts {
  if (spec === undefined) return parts;
  return { ...parts, createEnvironment: (r) => parts.createEnvironment({ ...r, env: r.env ?? spec }) };
}
