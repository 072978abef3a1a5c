// When a foreign run (OSWorld, Spider2-V, UFO result folders) started. Their folders record no start time, and a
// folder's mtime moves whenever a task is added or re-run, so the earliest step time of any task is used; the
// folder's mtime only when no step carries a time.
import { statSync } from 'node:fs';
import type { StepRecord } from '../../shared/run';

/** The earliest step time (ISO) over `tasks`, else `runDir`'s modification time. */
export function foreignRunStartedAt(runDir: string, tasks: readonly { steps: readonly StepRecord[] }[]): string {
  let first = Infinity;
  for (const t of tasks)
    for (const s of t.steps) {
      const at = Date.parse(s.at);
      if (at > 0 && at < first) first = at;
    }
  return new Date(Number.isFinite(first) ? first : statSync(runDir).mtimeMs).toISOString();
}
