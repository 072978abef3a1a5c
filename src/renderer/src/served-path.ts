// Where a run-relative file of a task (its screen recording) sits below the served root, which is how the UI loads
// files. runs.task gives the steps' files below the root and the task's recording below its run: the run's folder
// is what a step's file has before the task's folder, or else the run's path as runs.list names it. Pure: no DOM.
import type { StepRecord } from '../../shared/run';

/** The run's folder below the root ('' for the root itself), read off a step file inside the task's folder. */
export function runPrefixFromSteps(runRelative: string, steps: readonly StepRecord[]): string | undefined {
  const slash = runRelative.lastIndexOf('/');
  if (slash <= 0) return undefined; // a file at the run's top: no task folder to find in the steps' paths
  const taskDir = `${runRelative.slice(0, slash)}/`;
  for (const s of steps)
    for (const p of [s.observation, s.screenshot, s.somObservation, s.a11yTable]) {
      if (!p) continue;
      if (p.startsWith(taskDir)) return '';
      const at = p.lastIndexOf(`/${taskDir}`);
      if (at > 0) return p.slice(0, at);
    }
  return undefined;
}

/** `runRelative` below the root, given the run's folder below it ('' or '.' = the root). */
export const belowRoot = (runPrefix: string, runRelative: string) =>
  runPrefix && runPrefix !== '.' ? `${runPrefix}/${runRelative}` : runRelative;

/** The run's folder below the root as runs.list names it, for the route's run (a path or a run id). */
export function runPrefixFromList(
  runs: readonly { runId: string; path: string }[],
  routeRun: string,
  trajRun?: string,
): string | undefined {
  const r =
    runs.find((x) => x.path === routeRun) ??
    runs.find((x) => x.runId === routeRun) ??
    runs.find((x) => x.runId === trajRun);
  return r ? (r.path === '.' ? '' : r.path) : undefined;
}
