// Re-grading a finished run from its stored artefacts, without running the agent or the machine again: the
// task file is read anew (a changed gold file or evaluator counts), guest files come from the copies the run's
// grading kept, and checks that would need the live machine keep their stored score and are named.
import { copyFile, mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type {
  GradingProfile,
  MetricRecord,
  RuleVerdict,
  StepRecord,
  TaskState,
  Verdict,
  VerdictProvenance,
} from '../../shared/run';
import type { Task } from '../../shared/task';
import { combineScores } from '../evaluators/conj';
import { gradeTask, planOf, type GradeOptions } from '../evaluators/grade';
import { profileOf } from '../evaluators/profile';
import { appendVerdict, readRun, readTaskTrajectory, type RunManifest } from '../store';
import { gradingSettingsOf, type GradingSettings } from '../store/run-plan';
import { readTaskFile } from '../tasks/reader';
import { createArtefactEnvironment } from './artefact-environment';
import { checkNeeds, cloudDests, liveMessage } from './checks';
import { checkScoresOf, fetchedFilesOf, gradingCacheFolder, lastActionOf, runVerdictOf } from './stored';

export const regradedSource = 'regraded from stored artefacts';

/** A check that needs the live environment: named, with the score the run's grading gave it. */
export interface LiveCheck {
  pointer: string;
  metric: string;
  /** Getter types that need the machine, e.g. `vm_script_output`. */
  needs: string[];
  storedScore?: number;
}

export interface RegradeRow {
  taskKey: string;
  state: TaskState;
  /** The score of the run's own grading. */
  storedScore?: number;
  /** The re-graded score; undefined when the task was not re-graded or its score depends on live checks. */
  newScore?: number;
  changed?: boolean;
  liveChecks: LiveCheck[];
  /** The verdict appended to the task's verdicts.jsonl. */
  verdict?: RuleVerdict;
  /** Why the task was not re-graded. */
  notRegraded?: string;
}

export interface RegradeResult {
  runId: string;
  runDir: string;
  rows: RegradeRow[];
  /** The profile every task was graded under, when one was (else each task's own benchmark), and whence: the
   * option given, the run's plan, or its stored command line. */
  profile?: GradingProfile;
  profileFrom?: 'option' | 'plan' | 'args';
}

export interface RegradeOptions {
  /** Only these task keys (default: every task of the run). */
  tasks?: string[];
  /** The time stamped on the verdicts (default: now). */
  now?: Date;
  /** Grade under this profile (`--grading-profile`); default: the run's own profile (its plan's, else its stored
   * command line's), else each task's own benchmark. */
  profile?: GradingProfile;
  /** The folder `cloud_file` reads (`--downloads`); default: the run's own `--downloads` when it still exists. */
  downloads?: string;
}

export interface TaskRegrade {
  verdict?: RuleVerdict;
  storedScore?: number;
  liveChecks: LiveCheck[];
  notRegraded?: string;
}

const same = (a: number, b: number) => Math.abs(a - b) < 1e-9;

/** The combined score when the unknown ones cannot change it (`and` with a 0, `or` with a 1), else undefined. */
function combineKnown(scores: (number | undefined)[], conj: Task['conj']): number | undefined {
  const known = scores.filter((s): s is number => s !== undefined);
  if (known.length === scores.length) return combineScores(known, conj);
  if (conj === 'and' && known.some((s) => s <= 0)) return 0;
  if (conj === 'or' && known.some((s) => s >= 1)) return 1;
  return undefined;
}

/** Copies the stored cache files a `cache_file` getter names into the re-grading's own cache folder, and the
 * copies `cloud_file` made when there is no downloads folder to read them from again. */
async function seedCache(
  task: Task,
  taskDir: string,
  cacheDir: string,
  downloads: string | undefined,
): Promise<void> {
  const names = new Set<string>();
  const walk = (plan: ReturnType<typeof planOf>) => {
    if (plan.kind === 'combine') return plan.parts.forEach(walk);
    for (const s of [plan.result, plan.expected]) {
      if (s?.type === 'cache_file' && typeof s.path === 'string') names.add(s.path);
      if (s?.type === 'cloud_file' && downloads === undefined) for (const d of cloudDests(s)) names.add(d);
    }
  };
  task.checks.forEach((c) => walk(planOf(c)));
  for (const name of names) {
    const stored = join(taskDir, gradingCacheFolder, name);
    if (!existsSync(stored)) continue;
    const to = join(cacheDir, name);
    await mkdir(join(to, '..'), { recursive: true });
    await copyFile(stored, to);
  }
}

/**
 * Re-grades one task from what its run stored (`steps`, `verdicts`, the copies in `taskDir/cache/`) with the
 * task as it reads now. Returns the verdict to append (stamped `at`, with provenance), or why there is none.
 */
export async function regradeTask(input: {
  task: Task;
  taskDir: string;
  steps: StepRecord[];
  verdicts: Verdict[];
  at: Date;
  profile?: GradingProfile;
  downloads?: string;
}): Promise<TaskRegrade> {
  const { task, taskDir, steps, verdicts } = input;
  const at = input.at.toISOString();
  const original = runVerdictOf(verdicts);
  if (!original) return { liveChecks: [], notRegraded: 'the run stored no rule verdict for it' };
  const storedScore = original.score;
  const lastAction = lastActionOf(steps);
  const fetched = fetchedFilesOf(original, taskDir);
  const cacheDir = join(taskDir, 'regraded', at.replace(/[:.]/g, '-'));
  const ctx: GradeOptions = {
    env: createArtefactEnvironment(fetched),
    task,
    cacheDir,
    lastAction,
    // The stored files were fetched after the run's postconfig; it is not run again.
    runPostSetup: async () => undefined,
    profile: input.profile,
    downloads: input.downloads,
  };
  // Infeasible tasks and a FAIL answer are graded from the last action alone.
  const decidedByAction = task.infeasible || lastAction?.toUpperCase() === 'FAIL';
  const needs = decidedByAction ? [] : checkNeeds(task.checks, fetched, taskDir, input.downloads);
  const stored = checkScoresOf(original);
  const liveChecks: LiveCheck[] = needs
    .filter((n) => n.live.length)
    .map((n) => ({
      pointer: n.check.pointer,
      metric: n.check.metric,
      needs: n.live,
      storedScore: stored.get(n.check.pointer),
    }));
  const provenance: VerdictProvenance = { source: regradedSource, at, basedOn: original.at };
  await seedCache(task, taskDir, cacheDir, input.downloads);

  if (liveChecks.length === 0) {
    const verdict = await gradeTask(task, ctx);
    return { storedScore, liveChecks, verdict: { ...verdict, provenance, at } };
  }

  const scores: (number | undefined)[] = [];
  const records: MetricRecord[] = [];
  const errors: string[] = [];
  const accounts = new Set<string>();
  for (const { check, live } of needs) {
    if (live.length) {
      const kept = stored.get(check.pointer);
      scores.push(kept);
      const reason = `${liveMessage(live)}; ${kept === undefined ? 'the run stored no score for this check' : `kept the run's score ${kept}`}`;
      records.push({ metric: check.metric, score: kept ?? 0, reason, pointer: check.pointer });
      continue;
    }
    const one = await gradeTask({ ...task, checks: [check], postSetup: [], infeasible: false }, ctx);
    scores.push(one.score);
    records.push(...one.metrics);
    if (one.error) errors.push(one.error);
    one.needsAccount?.forEach((a) => accounts.add(a));
  }
  const score = combineKnown(scores, task.conj);
  const kept = liveChecks.map((c) => `${c.metric} at ${c.pointer} (${liveMessage(c.needs)})`).join('; ');
  if (score === undefined) {
    return {
      storedScore,
      liveChecks,
      notRegraded: `the score depends on checks without a stored score: ${kept}`,
    };
  }
  const verdict: RuleVerdict = {
    kind: 'rule',
    score,
    ...(task.checks.length > 1 ? { conj: task.conj } : {}),
    metrics: records,
    ...(errors.length ? { error: errors.join('; ') } : {}),
    ...(accounts.size ? { needsAccount: [...accounts] } : {}),
    reason: `${task.conj} of ${scores.length} checks = ${score.toFixed(3)}; stored scores kept for ${kept}`,
    profile: profileOf(task, input.profile),
    ...(records.some((r) => r.brittle)
      ? {
          brittle: records
            .filter((r) => r.brittle)
            .map((r) => `${r.metric}${r.pointer ? ` (${r.pointer})` : ''}: ${r.brittle}`),
        }
      : {}),
    provenance: {
      ...provenance,
      keptChecks: liveChecks.map((c) => ({
        pointer: c.pointer,
        metric: c.metric,
        needs: c.needs,
        score: c.storedScore,
      })),
    },
    at,
  };
  return { storedScore, liveChecks, verdict };
}

/** The run's own `--downloads` folder (its plan's, else its stored command line's), when it still exists. */
function runDownloads(settings: GradingSettings): string | undefined {
  const value = settings.downloads;
  return value && existsSync(value) ? resolve(value) : undefined;
}

const unfinished: ReadonlySet<TaskState> = new Set(['pending', 'running', 'cancelled']);

/**
 * Re-grades every finished task of a Proctor run folder (or those in `options.tasks`) and appends each new
 * verdict to the run. Throws when the folder cannot be read as a Proctor run or a task key is not in it.
 */
export async function regradeRun(runDir: string, options: RegradeOptions = {}): Promise<RegradeResult> {
  const dir = resolve(runDir);
  const detail = readRun(dir);
  if (detail.run.format !== 'proctor')
    throw new Error(
      `${dir}: a ${detail.run.format} result folder does not name its task files; proctor eval re-grades Proctor run folders`,
    );
  const manifest = detail.manifest as unknown as RunManifest;
  const unknown = (options.tasks ?? []).filter((k) => !detail.tasks.some((t) => t.key === k));
  if (unknown.length)
    throw new Error(
      `${dir}: no task ${unknown.map((k) => `'${k}'`).join(', ')} in this run (${join(dir, 'manifest.json')} /tasks)`,
    );
  const wanted = options.tasks?.length ? new Set(options.tasks) : undefined;
  const settings = gradingSettingsOf(dir, manifest.args);
  const downloads = options.downloads ?? runDownloads(settings);
  const profile = options.profile ?? settings.gradingProfile;
  const now = options.now ?? new Date();
  const rows: RegradeRow[] = [];
  for (const item of detail.tasks) {
    if (wanted && !wanted.has(item.key)) continue;
    const row: RegradeRow = { taskKey: item.key, state: item.state, liveChecks: [] };
    rows.push(row);
    if (unfinished.has(item.state)) {
      row.notRegraded = `not finished (${item.state})`;
      continue;
    }
    const traj = readTaskTrajectory(dir, item.key);
    if (!runVerdictOf(traj.verdicts)) {
      row.notRegraded = `the run did not grade it (${item.state}${item.error ? `: ${item.error}` : ''})`;
      continue;
    }
    const info = manifest.taskInfo?.[item.key];
    const file = info?.file;
    if (!info?.dir || !file) {
      row.notRegraded = `the manifest names no task file (/taskInfo/${item.key}/file)`;
      continue;
    }
    const { task, problems } = await readTaskFile(file);
    if (!task) {
      const first = problems[0];
      row.notRegraded = `task file ${file} cannot be read${first ? `: ${first.pointer ? `${first.pointer}: ` : ''}${first.message}` : ''}`;
      continue;
    }
    const result = await regradeTask({
      task,
      taskDir: join(dir, info.dir),
      steps: traj.steps,
      verdicts: traj.verdicts,
      at: now,
      profile,
      downloads,
    });
    row.storedScore = result.storedScore;
    row.liveChecks = result.liveChecks;
    if (!result.verdict) {
      row.notRegraded = result.notRegraded;
      continue;
    }
    appendVerdict(dir, item.key, result.verdict);
    row.verdict = result.verdict;
    row.newScore = result.verdict.score;
    row.changed = row.storedScore === undefined ? true : !same(row.storedScore, row.newScore);
  }
  const profileFrom: RegradeResult['profileFrom'] = options.profile
    ? 'option'
    : settings.source === 'none'
      ? undefined
      : settings.source;
  return { runId: detail.run.runId, runDir: dir, rows, ...(profile ? { profile, profileFrom } : {}) };
}
