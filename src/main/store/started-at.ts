// When a foreign run (OSWorld, Spider2-V, UFO result folders) and its tasks started, and where that time came
// from. Their folders record no start time and mtimes move on every copy, so the harness's own timestamps come
// first (`action_timestamp`), then a start time a person put into a folder name (`20250226@161539-failed`), and a
// file's mtime only as the last resort, labelled 'mtime'.
import { statSync } from 'node:fs';
import type { RunTaskItem, StepRecord, TimeSource } from '../../shared/run';

/** The earliest step time (ISO) over `tasks`, else `runDir`'s modification time. */
export function foreignRunStartedAt(
  runDir: string,
  tasks: readonly { steps: readonly StepRecord[] }[],
): string {
  let first = Infinity;
  for (const t of tasks)
    for (const s of t.steps) {
      const at = Date.parse(s.at);
      if (at > 0 && at < first) first = at;
    }
  return new Date(Number.isFinite(first) ? first : statSync(runDir).mtimeMs).toISOString();
}

/**
 * Sets `item.startedAt`, `item.timeSource` and (from the harness's timestamps) `item.timingMs`: first to last
 * timed entry. `folderAt` is a start time read from the task's folder name; `fallback` the file whose mtime is
 * the last resort.
 */
export function settleTaskTimes(
  item: RunTaskItem,
  entries: readonly StepRecord[],
  folderAt: Date | undefined,
  fallback: string,
): void {
  const times = entries.map((e) => Date.parse(e.at)).filter((t) => t > 0);
  if (times.length) {
    const first = Math.min(...times);
    item.startedAt = new Date(first).toISOString();
    item.timeSource = 'harness';
    const last = Math.max(...times);
    if (last > first) item.timingMs = last - first;
    return;
  }
  if (folderAt) {
    item.startedAt = folderAt.toISOString();
    item.timeSource = 'folder name';
    return;
  }
  try {
    item.startedAt = new Date(statSync(fallback).mtimeMs).toISOString();
    item.timeSource = 'mtime';
  } catch {
    // nothing to date it by
  }
}

/** The run's start: its earliest task start, from the best source any task has (harness, folder name, mtime). */
export function foreignRunStart(
  runDir: string,
  items: readonly RunTaskItem[],
): { startedAt: string; startedAtSource: TimeSource } {
  for (const source of ['harness', 'folder name', 'mtime'] as const) {
    const times = items
      .filter((i) => i.timeSource === source && i.startedAt)
      .map((i) => Date.parse(i.startedAt!));
    if (times.length)
      return { startedAt: new Date(Math.min(...times)).toISOString(), startedAtSource: source };
  }
  return { startedAt: new Date(statSync(runDir).mtimeMs).toISOString(), startedAtSource: 'mtime' };
}
