// The step loop of one task: setup → (observe → agent → perform → store)* → postconfig → grade → summary.
// Every way a task can end maps to one TaskState and one cause (store/attempt-cause.ts); the attempt's tokens,
// model cost, environment and wall time are recorded beside it. Nothing here throws past runTask except a store failure.
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type {
  Action,
  AttemptCause,
  AttemptCost,
  RuleVerdict,
  SetupStepTiming,
  StepRecord,
  TaskState,
} from '../../shared/run';
import type { Task } from '../../shared/task';
import { AgentError, type Agent, type AgentTurn, type StepFeedback } from '../agents/agent';
import { EnvironmentError, NeedsAccountError } from '../errors';
import type { Environment } from '../env/environment';
import { PostconfigError } from '../evaluators/grade';
import type { ObservationType } from '../observe/observation';
import type { RunWriter, TaskResults, TaskWriter } from '../store/run-writer';
import { skipReason, type AppCheck } from '../tasks/needs';
import { ownedTempPrefix } from '../env/leftovers';
import type { RunnerParts } from './parts';
import type { PriceTable } from '../price-table';
import { causeOf, type AttemptFacts } from '../store/attempt-cause';
import { attemptUsd } from './pricing';
import type { ActionSpace } from '../../shared/spaces';

export interface TaskRunSettings {
  observation: ObservationType;
  actionSpace: ActionSpace;
  maxSteps: number;
  timeoutMs: number;
  screen: { width: number; height: number };
  tokenBudget?: number;
  /** How long a WAIT action waits (ms). Default 1000. */
  waitMs?: number;
  appCheck?: AppCheck;
  /** Folder of files the task's setup would download (--downloads); nothing is fetched when given. */
  downloads?: string;
  /** Replies refused in a row that end the task as agent_error (0 = never). Default DEFAULT_MAX_REFUSALS. */
  maxRefusals?: number;
  /** The run's model (priced by name); else the agent's own `info().model`. */
  model?: string;
  /** Per-model prices given for the run (`--price`, `--prices`), before the agent's own and the bundled ones. */
  prices?: PriceTable;
}

/** Replies refused in a row (unparseable or unsafe output) after which the agent is taken to be broken. */
export const DEFAULT_MAX_REFUSALS = 5;

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

/** Why the loop stopped early; thrown inside the loop, mapped to a state at its end. */
class Stop extends Error {
  constructor(
    readonly state: TaskState,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const terminal = (a: Action) => a.type === 'DONE' || a.type === 'FAIL';

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Resolves with `p`, or rejects with a Stop as soon as `signal` aborts (the abort reason is the Stop). */
function until<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

const sleep = (ms: number, signal: AbortSignal) => until(new Promise<void>((r) => setTimeout(r, ms)), signal);

function envFailure(what: string, e: unknown): Stop {
  if (e instanceof Stop) return e;
  return new Stop('env_error', `${what}: ${message(e)}`, { cause: e });
}

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
  const { task, taskKey, run, writer, agent, parts, settings, runSignal } = input;
  const started = Date.now();
  const messages: string[] = [];
  let tokens = 0;
  let tokensIn = 0;
  let tokensOut = 0;
  let counted = false; // some turn reported its tokens
  let agentUsd: number | undefined;
  let envMs = 0;
  // What the attempt is doing now, for where a time limit struck (attribution).
  let phase: NonNullable<AttemptFacts['timedOutIn']> = 'environment';
  let timedOutIn: AttemptFacts['timedOutIn'];
  let verdictOf: RuleVerdict | undefined;
  let env: Environment | undefined;
  let home: string | undefined;
  let agentStarted = false;
  let lastAction: string | undefined;
  let state: TaskState = 'success';
  let error: string | undefined;
  let graded: { score: number; evalError: string | null } | undefined;

  const controller = new AbortController();
  const onRunAbort = () => controller.abort(new Stop('cancelled', 'the run was stopped'));
  if (runSignal.aborted) onRunAbort();
  else runSignal.addEventListener('abort', onRunAbort, { once: true });
  const timer = setTimeout(() => {
    timedOutIn = phase;
    controller.abort(
      new Stop('timed_out', `Time limit exceeded in ${task.id} (${Math.round(settings.timeoutMs / 1000)} s)`),
    );
  }, settings.timeoutMs);
  const signal = controller.signal;
  writer.started();
  // What the environment went through on its own (a display worker restarted…) becomes an event on the task.
  let step = 0;
  // Setup's steps, timed as they end, and one `task.setup` event per phase (config, postconfig) that had steps.
  const setupPhase = (phase: 'config' | 'postconfig') => {
    const steps: SetupStepTiming[] = [];
    const t0 = performance.now();
    return {
      onStep: (s: SetupStepTiming) => void steps.push(s),
      done: (error?: string) => {
        if (!steps.length && !error) return; // a phase without steps has nothing to record
        run.event({
          kind: 'task.setup',
          runId: run.runId,
          taskKey,
          at: new Date().toISOString(),
          phase,
          ms: Math.round(performance.now() - t0),
          ok: !error,
          steps,
          ...(error ? { error } : {}),
        });
      },
    };
  };
  /** Runs an environment operation, counting its time as the environment's. */
  const inEnv = async <T>(p: () => Promise<T>): Promise<T> => {
    phase = 'environment';
    const t0 = performance.now();
    try {
      return await p();
    } finally {
      envMs += performance.now() - t0;
    }
  };
  const noteIncidents = () => {
    for (const i of env?.incidents?.() ?? [])
      run.event({
        kind: 'task.incident',
        runId: run.runId,
        taskKey,
        at: i.at,
        ...(step ? { step } : {}),
        incident: i.incident,
        message: i.message,
      });
  };

  try {
    const skip = skipReason(task, settings.appCheck);
    if (skip) throw new Stop('skipped', skip);

    home = await mkdtemp(ownedTempPrefix('home'));
    env = await inEnv(() =>
      until(parts.createEnvironment({ worker: input.worker, ...settings.screen, home }), signal),
    ).catch((e) => {
      throw envFailure('the environment did not start', e);
    });
    const liveEnv = env;

    const config = setupPhase('config');
    await inEnv(() =>
      until(
        parts.runSetup(task.setup, liveEnv, {
          taskDir: task.dir,
          task,
          signal,
          downloads: settings.downloads,
          onStep: config.onStep,
        }),
        signal,
      ),
    ).then(
      () => config.done(),
      (e) => {
        const stop =
          e instanceof Stop
            ? e
            : e instanceof NeedsAccountError
              ? new Stop('skipped', e.message, { cause: e })
              : e instanceof EnvironmentError
                ? envFailure('setup', e)
                : new Stop('setup_error', `setup failed: ${message(e)}`, { cause: e });
        config.done(stop.message);
        throw stop;
      },
    );

    const agentCall = <T>(p: () => Promise<T>, what: string) => {
      phase = 'agent';
      return until((async () => p())(), signal).catch((e) => {
        if (e instanceof Stop) throw e;
        throw new Stop('agent_error', `${what}: ${message(e)}`, { cause: e });
      });
    };

    await agentCall(
      () =>
        agent.start({
          task,
          instruction: task.instruction,
          actionSpace: settings.actionSpace,
          observationType: settings.observation,
          maxSteps: settings.maxSteps,
          signal,
          environment: liveEnv,
        }),
      `agent ${agent.name} did not start`,
    );
    agentStarted = true;

    const feedback: StepFeedback[] = [];
    let finished = false;
    let refusedInARow = 0;
    const maxRefusals = settings.maxRefusals ?? DEFAULT_MAX_REFUSALS;
    noteIncidents(); // during setup
    for (step = 1; step <= settings.maxSteps && !finished; step++) {
      const t0 = performance.now();
      const observation = await inEnv(() =>
        until(parts.observe(liveEnv, settings.observation, { tokenBudget: settings.tokenBudget }), signal),
      ).catch((e) => {
        throw envFailure(`observation at step ${step}`, e);
      });
      const t1 = performance.now();
      const saved = await writer.saveObservation(step, {
        screenshot: observation.screenshot,
        som: observation.som?.image,
        a11yTable: observation.a11yTable,
      });
      const t2 = performance.now();
      const turn: AgentTurn = await agentCall(
        () => agent.next(observation, step, feedback.slice()),
        `agent ${agent.name} at step ${step}`,
      );
      const t3 = performance.now();
      tokens += (turn.tokens?.prompt ?? 0) + (turn.tokens?.completion ?? 0);
      if (turn.tokens) {
        counted = true;
        tokensIn += turn.tokens.prompt ?? 0;
        tokensOut += turn.tokens.completion ?? 0;
      }
      if (typeof turn.costUsd === 'number' && Number.isFinite(turn.costUsd))
        agentUsd = (agentUsd ?? 0) + turn.costUsd;
      refusedInARow = turn.refusal !== undefined ? refusedInARow + 1 : 0;

      let stepFeedback: string | undefined;
      let performed: Action[] = [];
      let envError: Stop | undefined;
      if (turn.refusal !== undefined) {
        stepFeedback = turn.refusal;
      } else {
        const end = turn.actions.findIndex(terminal);
        performed = end >= 0 ? turn.actions.slice(0, end + 1) : turn.actions;
        const toPerform = performed.filter((a) => !terminal(a) && a.type !== 'WAIT');
        try {
          for (const a of performed) {
            if (a.type === 'WAIT') await sleep(settings.waitMs ?? 1000, signal);
          }
          if (toPerform.length) await inEnv(() => until(liveEnv.perform(toPerform), signal));
        } catch (e) {
          if (e instanceof Stop) throw e;
          if (e instanceof EnvironmentError) envError = envFailure(`performing step ${step}`, e);
          stepFeedback = `the action failed: ${message(e)}`;
        }
        if (end >= 0 && !envError) {
          lastAction = turn.actions[end].type;
          finished = true;
        }
      }
      if (stepFeedback) feedback.push({ step, message: stepFeedback });
      const t4 = performance.now();
      const after =
        !envError && liveEnv.capabilities.has('screenshot')
          ? await inEnv(() => until(liveEnv.screenshot(), signal)).catch((e) => {
              throw envFailure(`screenshot after step ${step}`, e);
            })
          : undefined;
      const record: StepRecord = {
        step,
        at: new Date().toISOString(),
        response: turn.response,
        rawAction: turn.rawAction,
        actions: performed,
        ...(stepFeedback ? { feedback: stepFeedback } : {}),
        ...saved,
        ...(observation.som
          ? {
              marks: observation.som.marks.map((m) => ({
                id: m.id,
                x: m.x,
                y: m.y,
                w: m.width,
                h: m.height,
                label: m.label,
              })),
            }
          : {}),
        ...(observation.screenshot
          ? {
              screen: {
                width: Math.round(observation.screenshot.width * observation.screenshot.toScreen),
                height: Math.round(observation.screenshot.height * observation.screenshot.toScreen),
              },
            }
          : {}),
        ...(turn.tokens ? { tokens: turn.tokens } : {}),
        timing: { observeMs: t1 - t0, agentMs: t3 - t2, actMs: t4 - t3, storeMs: t2 - t1 },
        done: finished,
      };
      noteIncidents();
      await writer.recordStep(record, after, {
        action: turn.rawAction ?? turn.response,
        info: stepFeedback ? { feedback: stepFeedback } : {},
      });
      if (envError) throw envError;
      if (maxRefusals > 0 && refusedInARow >= maxRefusals && !finished)
        throw new Stop(
          'agent_error',
          `the agent's replies were refused ${refusedInARow} times in a row (last: ${(turn.refusal ?? '').split('\n')[0].slice(0, 200)})`,
        );
    }
    if (!finished) {
      state = 'max_steps_error';
      messages.push(`the step limit (${settings.maxSteps}) was reached before DONE or FAIL`);
    }

    // The task's own evaluator; it runs the postconfig first through runPostSetup. A postconfig that fails
    // leaves the environment short of the state the metric reads: an environment failure, not a score.
    const cacheDir = join(writer.dir, 'cache');
    const runPostSetup = async (steps: Task['postSetup']) => {
      const post = setupPhase('postconfig');
      await inEnv(() =>
        until(
          parts.runSetup(steps, liveEnv, {
            taskDir: task.dir,
            task,
            signal,
            downloads: settings.downloads,
            onStep: post.onStep,
          }),
          signal,
        ),
      )
        .then(
          () => post.done(),
          (e) => {
            post.done(message(e));
            throw e;
          },
        )
        .finally(() => (phase = 'grading'));
    };
    phase = 'grading';
    const verdict = await until(
      parts.grade(task, {
        env: liveEnv,
        task,
        cacheDir,
        downloads: settings.downloads,
        lastAction,
        runPostSetup,
        signal,
      }),
      signal,
    ).catch((e) => {
      if (e instanceof Stop) throw e;
      if (e instanceof PostconfigError) throw new Stop('env_error', e.message, { cause: e });
      return {
        kind: 'rule' as const,
        score: 0,
        metrics: [],
        error: `grading failed: ${message(e)}`,
        at: new Date().toISOString(),
      };
    });
    step = 0; // incidents from here on are the grading's
    noteIncidents();
    run.appendVerdict(taskKey, verdict);
    verdictOf = verdict;
    graded = { score: Number.isFinite(verdict.score) ? verdict.score : 0, evalError: verdict.error ?? null };
  } catch (e) {
    const stop =
      e instanceof Stop
        ? e
        : new Stop(e instanceof AgentError ? 'agent_error' : 'env_error', message(e), { cause: e });
    state = stop.state;
    error = stop.message;
    if (state !== 'skipped' && state !== 'cancelled') writer.recordError(error);
    messages.push(error);
  } finally {
    clearTimeout(timer);
    runSignal.removeEventListener('abort', onRunAbort);
    if (agentStarted) await agent.finish?.().catch((e) => messages.push(`agent finish: ${message(e)}`));
    noteIncidents(); // a task that stopped early
    if (env) await inEnv(() => env!.close()).catch((e) => messages.push(`environment close: ${message(e)}`));
    if (home) await rm(home, { recursive: true, force: true }).catch(() => undefined);
  }

  const timingMs = Date.now() - started;
  const score = graded?.score ?? 0;
  const cause = causeOf({
    state,
    score,
    ...(graded ? { verdict: verdictOf } : {}),
    ...(state === 'timed_out' ? { timedOutIn } : {}),
  });
  const cost = attemptCost();
  const results: TaskResults = {
    score,
    eval_error: graded?.evalError ?? null,
    state,
    messages,
    total_tokens: tokens,
    total_timing: timingMs / 1000,
    steps: writer.stepCount,
    ...(cause ? { cause } : {}),
    ...(input.attempt !== undefined ? { attempt: input.attempt } : {}),
    cost,
  };
  const outcome: TaskOutcome = {
    taskKey,
    state,
    score,
    steps: writer.stepCount,
    tokens,
    timingMs,
    error,
    cost,
    ...(cause ? { cause } : {}),
    ...(input.attempt !== undefined ? { attempt: input.attempt } : {}),
  };
  /** Tokens and model cost (agents without a model, which report no tokens, cost nothing), environment and wall time. */
  function attemptCost(): AttemptCost {
    const info = agent.info?.();
    const model = settings.model ?? (info && info.model !== info.agent ? info.model : undefined);
    const modelless = !counted && agentUsd === undefined && model === undefined;
    const out: AttemptCost = { envMs: Math.round(envMs), wallMs: timingMs };
    if (counted || modelless) {
      out.tokensIn = tokensIn;
      out.tokensOut = tokensOut;
    }
    const usd = modelless
      ? 0
      : counted
        ? attemptUsd(model, { prompt: tokensIn, completion: tokensOut }, agentUsd, settings.prices)
        : agentUsd;
    if (usd !== undefined) out.usd = usd;
    return out;
  }
  if (state === 'cancelled') await writer.finish('cancelled', undefined, error);
  else await writer.finish(state, { taskFields: task.raw, results }, error ?? graded?.evalError ?? undefined);
  return outcome;
}
