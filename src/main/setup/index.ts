// Setup: a task's `config` (and `postconfig`) steps run on an Environment through the registry of setup funcs;
// each step is checked by its func, timed, and reported to the context's onStep.
import type { Environment } from '../env/environment';
import type { SetupStepTiming } from '../../shared/run';
import type { SetupStep } from '../../shared/task';
import { NeedsAccountError } from '../errors';
import { setupFuncs, type SetupContext } from './funcs';
import { SetupError, SetupStepFailure } from './setup-error';
import './feature-funcs';
import './browser-funcs';

export {
  setupFuncs,
  ACCOUNT_SETUP_FUNCS,
  accountSetupFuncNames,
  taskAsset,
  type SetupFunc,
  type SetupContext,
} from './funcs';
export { SetupError, SetupStepFailure, stepPlace } from './setup-error';

/** What a run of steps took: each step's record and the total (ms). */
export interface SetupReport {
  steps: SetupStepTiming[];
  ms: number;
}

const reasonOf = (e: unknown): string =>
  e instanceof SetupStepFailure
    ? e.message
    : `${(e as Error)?.name ?? 'Error'}: ${(e as Error)?.message ?? String(e)}`;

/**
 * Runs the steps in order, each checked by its func (exit status, the window, the file). Throws SetupError naming
 * the task, the step (config / postconfig, index, func, JSON pointer) and the cause; a func that needs a cloud
 * account throws NeedsAccountError ("needs account: <service>") as it is. Every step, done or failed, goes to
 * `ctx.onStep` with its time and what was checked.
 */
export async function runSetupSteps(
  steps: SetupStep[],
  env: Environment,
  ctx: SetupContext,
): Promise<SetupReport> {
  const t0 = performance.now();
  const records: SetupStepTiming[] = [];
  const task = ctx.task?.id;
  const note = (
    step: SetupStep,
    started: number,
    ok: boolean,
    extra: { check?: string; error?: string },
  ): void => {
    const record: SetupStepTiming = {
      pointer: step.pointer,
      func: step.func,
      ms: Math.round(performance.now() - started),
      ok,
      ...extra,
    };
    records.push(record);
    ctx.onStep?.(record);
  };
  for (const step of steps) {
    const started = performance.now();
    if (ctx.signal?.aborted)
      throw new SetupError(step.pointer, step.func, 'cancelled before this step', { task });
    const func = setupFuncs.get(step.func);
    if (!func) {
      const error = new SetupError(step.pointer, step.func, setupFuncs.unknownMessage(step.func), { task });
      note(step, started, false, { error: error.reason });
      throw error;
    }
    const args = step.args && typeof step.args === 'object' && !Array.isArray(step.args) ? step.args : {};
    let check: string | void;
    try {
      check = await func(args, env, ctx);
    } catch (e) {
      if (e instanceof NeedsAccountError) {
        note(step, started, false, { error: e.message });
        throw e;
      }
      const error =
        e instanceof SetupError
          ? e
          : new SetupError(step.pointer, step.func, reasonOf(e), { cause: e, task });
      note(step, started, false, { error: error.reason });
      throw error;
    }
    note(step, started, true, typeof check === 'string' && check ? { check } : {});
  }
  return { steps: records, ms: Math.round(performance.now() - t0) };
}
