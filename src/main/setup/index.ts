// Setup: a task's `config` (and `postconfig`) steps run on an Environment through the registry of setup funcs.
import type { Environment } from '../env/environment';
import type { SetupStep } from '../../shared/task';
import { NeedsAccountError } from '../errors';
import { setupFuncs, type SetupContext } from './funcs';
import { SetupError, SetupStepFailure } from './setup-error';
import './feature-funcs';
import './browser-funcs';

export { setupFuncs, ACCOUNT_SETUP_FUNCS, accountSetupFuncNames, taskAsset, type SetupFunc, type SetupContext } from './funcs';
export { SetupError, SetupStepFailure } from './setup-error';

/**
 * Runs the steps in order. Throws SetupError naming the step's JSON pointer and func; a func that needs a cloud
 * account throws NeedsAccountError ("needs account: <service>") as it is.
 */
export async function runSetupSteps(steps: SetupStep[], env: Environment, ctx: SetupContext): Promise<void> {
  for (const step of steps) {
    if (ctx.signal?.aborted) throw new SetupError(step.pointer, step.func, 'cancelled before this step');
    const func = setupFuncs.get(step.func);
    if (!func) throw new SetupError(step.pointer, step.func, setupFuncs.unknownMessage(step.func));
    const args = step.args && typeof step.args === 'object' && !Array.isArray(step.args) ? step.args : {};
    try {
      await func(args, env, ctx);
    } catch (e) {
      if (e instanceof NeedsAccountError) throw e;
      if (e instanceof SetupError) throw e;
      const reason = e instanceof SetupStepFailure ? e.message : `${(e as Error)?.name ?? 'Error'}: ${(e as Error)?.message ?? String(e)}`;
      throw new SetupError(step.pointer, step.func, reason, { cause: e });
    }
  }
}
