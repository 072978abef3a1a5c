// Demonstration review (issue 29): a lead accepts or rejects a person's run of a task (a run of the `human` agent)
// with a reason. Reviews are append-only events in `demonstration.jsonl` in the run's task folder (beside its
// traj.jsonl and verdicts.jsonl, so the verdict travels with the run); the latest event decides. An accepted
// demonstration is the task's oracle for `--agent demo` and shows in the task's review evidence.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Role } from '../../shared/run';
import { appendJsonLine, findRunDirs, readJsonLines, readManifest, runFiles, taskDirOf } from '../store';
import type { ActionSpace } from '../../shared/spaces';

export const demonstrationFile = 'demonstration.jsonl';
export type DemonstrationVerdict = 'accepted' | 'rejected';

export interface DemonstrationReview {
  kind: 'demonstration.review';
  runId: string;
  taskKey: string;
  verdict: DemonstrationVerdict;
  reason: string;
  author: string;
  role?: Role;
  at: string;
}

export interface Demonstration {
  runDir: string;
  runId: string;
  taskKey: string;
  /** The task's id (the key's last segment without its attempt). */
  taskId: string;
  /** The run's action space, in which the entries were typed. */
  actionSpace: ActionSpace;
  /** The screen the person acted on (pixels), where the run says; its coordinates are on this screen. */
  screen?: { width: number; height: number };
  review: DemonstrationReview;
}

/** A screen size from someone's manifest, when it is one. */
function screenOf(v: unknown): { width: number; height: number } | undefined {
  const s = v as { width?: unknown; height?: unknown } | null | undefined;
  const ok = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n > 0 && n <= 16384;
  return s && ok(s.width) && ok(s.height) ? { width: s.width, height: s.height } : undefined;
}

/** The task id of a key `<domain>/<id>` or `<domain>/<id>#<attempt>`. */
export const taskIdOfKey = (taskKey: string) => (taskKey.split('/').pop() ?? taskKey).replace(/#\d+$/, '');

const isReview = (v: unknown): v is DemonstrationReview => {
  const r = v as Partial<DemonstrationReview> | null;
  return (
    typeof r === 'object' &&
    r !== null &&
    r.kind === 'demonstration.review' &&
    (r.verdict === 'accepted' || r.verdict === 'rejected') &&
    typeof r.reason === 'string' &&
    r.reason.trim() !== '' &&
    typeof r.author === 'string' &&
    typeof r.at === 'string'
  );
};

/** The valid review events of one run's task, oldest first (lines that are not one are passed over). */
export function readDemonstrationReviews(runDir: string, taskKey: string): DemonstrationReview[] {
  return readJsonLines(join(taskDirOf(runDir, taskKey), demonstrationFile)).values.filter(isReview);
}

/** The run must be a Proctor run of the `human` agent that holds the task; else an error saying what it is. */
export function checkHumanRun(runDir: string, taskKey: string): { runId: string; actionSpace: ActionSpace } {
  if (!existsSync(join(runDir, runFiles.manifest)))
    throw new Error(
      `${runDir} is not a Proctor run folder (no ${runFiles.manifest}): only a person's run can be a demonstration`,
    );
  const manifest = readManifest(runDir);
  if (manifest.agent !== 'human')
    throw new Error(
      `run ${manifest.runId} was run by the ${manifest.agent} agent: only a person's run (agent human) can be a demonstration`,
    );
  if (!manifest.tasks.includes(taskKey))
    throw new Error(
      `run ${manifest.runId} has no task '${taskKey}' (${join(runDir, runFiles.manifest)} /tasks)`,
    );
  return {
    runId: manifest.runId,
    actionSpace: manifest.actionSpace === 'computer_13' ? 'computer_13' : 'pyautogui',
  };
}

/** Appends a lead's verdict on a person's run of a task; the reason is required. */
export function reviewDemonstration(
  runDir: string,
  taskKey: string,
  input: { verdict: DemonstrationVerdict; reason: string; author: string; role?: Role },
): DemonstrationReview {
  const { runId } = checkHumanRun(runDir, taskKey);
  if (!input.reason.trim()) throw new Error('a demonstration review needs a reason');
  const review: DemonstrationReview = {
    kind: 'demonstration.review',
    runId,
    taskKey,
    verdict: input.verdict,
    reason: input.reason.trim(),
    author: input.author,
    ...(input.role ? { role: input.role } : {}),
    at: new Date().toISOString(),
  };
  const dir = taskDirOf(runDir, taskKey);
  mkdirSync(dir, { recursive: true });
  appendJsonLine(join(dir, demonstrationFile), review, { fsync: true });
  return review;
}

/** The current verdict of a run's task: its latest review, if any. */
export function demonstrationStatus(runDir: string, taskKey: string): DemonstrationReview | undefined {
  return readDemonstrationReviews(runDir, taskKey).at(-1);
}

/** Every accepted demonstration of task `taskId` in the runs below `root`, latest accepted first. */
export function acceptedDemonstrations(root: string, taskId: string): Demonstration[] {
  const out: Demonstration[] = [];
  for (const runDir of findRunDirs(root)) {
    if (!existsSync(join(runDir, runFiles.manifest))) continue;
    let run: ReturnType<typeof checkHumanRun> | undefined;
    let keys: string[];
    let manifest: ReturnType<typeof readManifest>;
    try {
      manifest = readManifest(runDir);
      if (manifest.agent !== 'human') continue;
      keys = manifest.tasks.filter((k) => taskIdOfKey(k) === taskId);
      if (!keys.length) continue;
      run = checkHumanRun(runDir, keys[0]);
    } catch {
      continue; // an unreadable manifest is reported by the run's own readers
    }
    for (const taskKey of keys) {
      let latest: DemonstrationReview | undefined;
      try {
        latest = demonstrationStatus(runDir, taskKey);
      } catch {
        continue;
      }
      const screen = screenOf(manifest.taskInfo?.[taskKey]?.screen ?? manifest.screen);
      if (latest?.verdict === 'accepted')
        out.push({
          runDir,
          runId: run.runId,
          taskKey,
          taskId,
          actionSpace: run.actionSpace,
          ...(screen ? { screen } : {}),
          review: latest,
        });
    }
  }
  return out.sort((a, b) => b.review.at.localeCompare(a.review.at));
}

/**
 * The entries a person gave in a demonstration, in order: each step's `response` in traj.jsonl (what was typed
 * or clicked). Lines that are not steps are named with their line number.
 */
export function demonstrationEntries(demo: Pick<Demonstration, 'runDir' | 'taskKey'>): string[] {
  const file = join(taskDirOf(demo.runDir, demo.taskKey), runFiles.traj);
  if (!existsSync(file)) throw new Error(`the demonstration has no steps: ${file} is missing`);
  const entries: string[] = [];
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      if (!line.trim()) return;
      let step: { response?: unknown; Error?: unknown };
      try {
        step = JSON.parse(line) as typeof step;
      } catch {
        throw new Error(`${file} line ${i + 1}: not JSON; the demonstration cannot be replayed`);
      }
      if (step.Error !== undefined && step.response === undefined) return; // an error line, not a step
      if (typeof step.response !== 'string' || !step.response.trim())
        throw new Error(`${file} line ${i + 1} /response: must be the person's entry (text)`);
      entries.push(step.response);
    });
  return entries;
}
