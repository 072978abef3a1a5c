// The first stage of a task: the skip check, a sandbox home, a fresh environment, and the task's setup (config).
// Setup phases (config, postconfig) are run and recorded the same way here.
import { mkdtemp } from 'node:fs/promises';
import type { SetupStep, Task } from '../../shared/task';
import type { Environment } from '../env/environment';
import { ownedTempPrefix } from '../env/leftovers';
import { EnvironmentError, NeedsAccountError } from '../errors';
import { skipReason } from '../tasks/needs';
import { envFailure, message, Stop, until, type TaskAttempt } from './attempt';
import type { RunnerParts } from './parts';
import type { EnvironmentPlan } from './task-plan';

/** Runs one setup phase on the environment and records it (`task.setup`); `failure` maps what it throws. */
export async function runSetupPhase(
  a: TaskAttempt,
  runSetup: RunnerParts['runSetup'],
  where: { env: Environment; task: Task; downloads?: string },
  phase: { name: 'config' | 'postconfig'; steps: SetupStep[]; failure: (e: unknown) => unknown },
): Promise<void> {
  const { env, task, downloads } = where;
  const timing = a.setupPhase(phase.name);
  await a
    .inEnv(() =>
      until(
        runSetup(phase.steps, env, {
          taskDir: task.dir,
          task,
          signal: a.signal,
          downloads,
          onStep: timing.onStep,
        }),
        a.signal,
      ),
    )
    .then(
      () => timing.done(),
      (e) => {
        const failed = phase.failure(e);
        timing.done(message(failed));
        throw failed;
      },
    );
}

/** What a failed config setup ends the attempt as: skipped (an account is needed), env_error or setup_error. */
function setupFailure(e: unknown): Stop {
  if (e instanceof Stop) return e;
  if (e instanceof NeedsAccountError) return new Stop('skipped', e.message, { cause: e });
  if (e instanceof EnvironmentError) return envFailure('setup', e);
  return new Stop('setup_error', `setup failed: ${message(e)}`, { cause: e });
}

/** Skips a task its apps cannot run, else starts its environment (kept on the attempt) and runs its setup. */
export async function prepareEnvironment(
  a: TaskAttempt,
  task: Task,
  parts: Pick<RunnerParts, 'createEnvironment' | 'runSetup'>,
  plan: EnvironmentPlan,
  worker: number,
): Promise<Environment> {
  const skip = skipReason(task, plan.appCheck);
  if (skip) throw new Stop('skipped', skip);
  const home = await mkdtemp(ownedTempPrefix('home'));
  a.home = home;
  const starting = parts.createEnvironment({ worker, ...plan.screen, home });
  const env = await a
    .inEnv(() => until(starting, a.signal))
    .catch((e) => {
      // the attempt stopped while the environment was starting: it is closed once up, not left running
      if (a.signal.aborted) void starting.then((late) => late.close()).catch(() => undefined);
      throw envFailure('the environment did not start', e);
    });
  a.env = env;
  await runSetupPhase(
    a,
    parts.runSetup,
    { env, task, downloads: plan.downloads },
    { name: 'config', steps: task.setup, failure: setupFailure },
  );
  return env;
}
