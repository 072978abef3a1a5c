// runs.compare and runs.stepDiffs: one task in two to four runs, side by side. The trajectories come with the
// first step where the runs' actions part; the per-step screen differences (image work, slower) are a second
// call so the view paints before they arrive.
import { resolve } from 'node:path';
import type {
  ApiHandlers,
  ComparedRun,
  StepDifferences,
  TaskComparison,
  TaskTrajectory,
} from '../../shared/api';
import { firstActionDivergence, firstScreenDivergence } from '../../shared/divergence';
import { ApiRequestError } from './api-error';
import { resolveBelow } from './paths';
import { SCREEN_DIFF_THRESHOLD, screenDifference } from './step-diff';

type CompareMethods = Pick<ApiHandlers, 'runs.compare' | 'runs.stepDiffs'>;

export interface CompareSources {
  /** A run's task as runs.task answers it (file paths relative to the served root). */
  trajectory(runId: string, taskKey: string): TaskTrajectory;
  /** A run's folder below the root and who ran it. */
  run(runId: string): ComparedRun;
  /** The key a run keeps the task under (a repeated run keeps attempts: `x#1`, …), or the key as asked. */
  keyIn(runId: string, taskKey: string): string;
}

function distinct(runIds: string[]): void {
  if (new Set(runIds).size !== runIds.length)
    throw new ApiRequestError('bad_request', `runIds: a run is named twice (${runIds.join(', ')})`);
}

export function compareHandlers(root: string, sources: CompareSources): CompareMethods {
  const load = (runIds: string[], taskKey: string) => {
    distinct(runIds);
    return runIds.map((id) => sources.trajectory(id, sources.keyIn(id, taskKey)));
  };
  return {
    'runs.compare': async ({ runIds, taskKey }): Promise<TaskComparison> => {
      const trajectories = load(runIds, taskKey);
      // Each side carries the key its run keeps the task under (an attempt of a repeated run: `x#1`).
      const runs = trajectories.map((t, i) => ({ ...t, run: sources.run(runIds[i]) }));
      return { taskKey, runs, actionDivergence: firstActionDivergence(trajectories.map((t) => t.steps)) };
    },
    'runs.stepDiffs': async ({ runIds, taskKey }): Promise<StepDifferences> => {
      const trajectories = load(runIds, taskKey);
      const shotOf = (t: TaskTrajectory, i: number) => {
        const s = t.steps[i];
        const p = s?.observation ?? s?.screenshot;
        return p === undefined ? undefined : resolveBelow(root, p);
      };
      const [first, ...others] = trajectories;
      const diffs = await Promise.all(
        others.map((other) =>
          Promise.all(
            other.steps.map(async (_, i) => {
              const a = shotOf(first, i);
              const b = shotOf(other, i);
              return a && b ? screenDifference(resolve(a), resolve(b)) : null;
            }),
          ),
        ),
      );
      return {
        diffs,
        threshold: SCREEN_DIFF_THRESHOLD,
        screenDivergence: firstScreenDivergence(diffs, SCREEN_DIFF_THRESHOLD),
      };
    },
  };
}
