// Where things live in a run folder (the agreed layout; OSWorld's result layout below the run folder). A repeated
// run (`--repeats N`) keeps each attempt in its own folder `<task folder>/attempt-<n>/` under the key `<key>#<n>`.
import { isAbsolute, join, resolve } from 'node:path';
import { isInside } from '../contained';
import type { RunManifest } from '../../shared/generated/run-manifest';

/** manifest.json's types come from resources/schemas/run-manifest.schema.json (npm run gen:types). */
export type { RunManifest, ManifestTaskInfo } from '../../shared/generated/run-manifest';

export const files = {
  manifest: 'manifest.json',
  events: 'events.jsonl',
  summary: 'summary.json',
  traj: 'traj.jsonl',
  result: 'result.txt',
  steps: 'steps.jsonl',
  verdicts: 'verdicts.jsonl',
  evaluationLog: 'evaluation.log',
  lock: '.lock',
  observations: 'observations',
} as const;

/** A folder-name-safe form of a model or agent name (`Qwen/Qwen2-VL` → `Qwen_Qwen2-VL`). */
export function safeSegment(name: string): string {
  const s = name.replace(/[^A-Za-z0-9._@+-]+/g, '_').replace(/^\.+/, '_');
  return s.slice(0, 120) || '_';
}

/** `<actionSpace>/<observation>/<model or agent>/<domain>/<taskId>` relative to the run folder. */
export function taskDirFor(
  run: Pick<RunManifest, 'actionSpace' | 'observation' | 'model' | 'agent'>,
  domain: string,
  taskId: string,
): string {
  return join(
    run.actionSpace,
    run.observation,
    safeSegment(run.model ?? run.agent),
    safeSegment(domain),
    safeSegment(taskId),
  );
}

/**
 * A task folder named by a manifest (`taskInfo[key].dir`), which may come from someone else's run: it must be
 * relative and stay inside the run folder, also through symlinks.
 */
export function taskDirIn(runDir: string, rel: string): string {
  const base = resolve(runDir);
  if (isAbsolute(rel) || !isInside(base, rel))
    throw new Error(`task folder '${rel}' is outside the run folder ${base}`);
  return resolve(base, rel);
}

export function taskKeyOf(task: { domain: string; id: string }): string {
  return `${task.domain}/${task.id}`;
}

/** The key of attempt `n` of a task in a repeated run: `<domain>/<task id>#<n>`. */
export function attemptKeyOf(taskKey: string, n: number): string {
  return `${taskKey}#${n}`;
}

/**
 * The entry of `keys` (one run's task keys) that stands for `requested`, a key of another run: the same key;
 * else the task itself for an attempt (`x#2` in a run of single attempts is `x`); else the first attempt for a
 * task (`x` in a repeated run is `x#1`). Undefined when the run does not have the task.
 */
export function matchingTaskKey(keys: readonly string[], requested: string): string | undefined {
  if (keys.includes(requested)) return requested;
  const attempt = /^(.*)#\d+$/.exec(requested);
  if (attempt && keys.includes(attempt[1])) return attempt[1];
  const first = attemptKeyOf(attempt ? attempt[1] : requested, 1);
  return keys.includes(first) ? first : undefined;
}

/** The folder of attempt `n` below the task's folder: `<domain>/<task id>/attempt-<n>`. */
export function attemptDirOf(taskDir: string, n: number): string {
  return join(taskDir, `attempt-${n}`);
}

/**
 * The task a manifest entry runs and which attempt it is: `taskInfo[key].task` / `.attempt` for a repeated
 * run's entries, else the key itself (attempt undefined: a single attempt).
 */
export function entryOf(
  manifest: Pick<RunManifest, 'taskInfo'>,
  key: string,
): { taskKey: string; attempt?: number } {
  const info = manifest.taskInfo?.[key];
  const attempt = info?.attempt;
  if (
    typeof info?.task === 'string' &&
    info.task &&
    typeof attempt === 'number' &&
    Number.isInteger(attempt) &&
    attempt >= 1
  )
    return { taskKey: info.task, attempt };
  return { taskKey: key };
}

/** `20261122-031500-oracle`, unique in `existing` (a suffix `-2`, `-3`, … when the second is taken). */
export function newRunId(
  agentOrModel: string,
  exists: (id: string) => boolean,
  now: Date = new Date(),
): string {
  const p = (n: number) => String(n).padStart(2, '0');
  const base =
    `${now.getFullYear()}${p(now.getMonth() + 1)}${p(now.getDate())}-` +
    `${p(now.getHours())}${p(now.getMinutes())}${p(now.getSeconds())}-${safeSegment(agentOrModel)}`;
  if (!exists(base)) return base;
  for (let n = 2; ; n++) if (!exists(`${base}-${n}`)) return `${base}-${n}`;
}
