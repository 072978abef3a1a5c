// `proctor selftest --oracle gold`: a real task's grading checked with its own gold file. Each task runs with the
// noop agent (doing nothing must score 0) and with the gold agent (the gold file reopened in the application and
// saved by the postconfig must score 1). Setup is timed in both; a gold that scores below 1 is diagnosed by
// grading the untouched gold file against itself: if that scores 1, the application's round trip lost something.
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { extname, join, relative } from 'node:path';
import type { RuleVerdict, RunEvent } from '../../shared/run';
import type { SetupStep, Task } from '../../shared/task';
import { GoldAgent } from '../agents/gold';
import type { Environment } from '../env/environment';
import { fetchDownload } from '../downloads';
import { profileOf } from '../evaluators/profile';
import { tryMetric } from '../evaluators/try-metric';
import { partsWith, type RunnerParts } from '../runner/parts';
import { taskKeyOf } from '../store/layout';
import { goldFilesOf, noGoldReason } from '../tasks/gold';
import { formatTable } from '../text/table';
import { runTrial } from './trials';
import { formatScore, judgeSelfTest, type SelfTestVerdict, type TrialResult } from './verdict';

export interface GoldSelfTestOptions {
  outDir: string;
  parallel?: number;
  args?: string[];
  env?: string;
  /** Folder standing for the network: download steps and cloud_file golds (`--downloads`). */
  downloads?: string;
  signal?: AbortSignal;
  onEvent?: (event: RunEvent) => void;
  log?: (line: string) => void;
  parts?: Partial<RunnerParts>;
  /** Per-task time limit (default 5 minutes: a real application starts cold twice). */
  taskTimeoutMs?: number;
}

export interface PhaseResult extends TrialResult {
  /** Whole task time (setup, turns, postconfig, grading), ms. */
  ms?: number;
  /** The task's own setup steps, ms. */
  setupMs?: number;
  /** Postconfig and grading, ms. */
  gradeMs?: number;
  /** The rule verdict's reason and failing checks, when graded. */
  why?: string;
  /** Why the task's metrics never ran although the run reached grading (a failed postconfig, a grading error). */
  notGraded?: string;
  /** Guest files graded byte for byte as the gold put in place: the application never saved them. */
  unsaved?: string[];
}

export type GoldVerdict =
  SelfTestVerdict | 'no gold file' | 'gold lost in the round trip' | 'not saved by the application';

export interface GoldSelfTestReport {
  key: string;
  file: string;
  verdict: GoldVerdict;
  reason: string;
  /** Did the task's setup run (in the noop trial)? */
  setup: { ok: boolean; ms?: number; error?: string };
  noop: PhaseResult;
  gold?: PhaseResult;
  /** The untouched gold graded against itself, per gold file: 1 means the metric accepts its own gold. */
  untouched?: { file: string; metric: string; score: number; reason: string }[];
}

export interface GoldSelfTestOutcome {
  dir: string;
  reports: GoldSelfTestReport[];
  runDirs: { noop: string; gold?: string };
}

const setupFailed = new Set(['setup_error', 'env_error', 'timed_out', 'cancelled', 'pending']);

type Times = Map<string, { setupMs?: number; gradeMs?: number; verdict?: RuleVerdict; unsaved?: string[] }>;

/**
 * Times of setup and grading per task, measured around the engine's own parts; with `watchSaves`, the gold files
 * the postconfig did not write (their modification time the same before and after it) are noted as unsaved.
 */
function timedParts(base: RunnerParts, times: Times, watchSaves = false): Partial<RunnerParts> {
  const entry = (task: Task) => {
    const key = taskKeyOf(task);
    let e = times.get(key);
    if (!e) times.set(key, (e = {}));
    return e;
  };
  return {
    ...base,
    async runSetup(steps: SetupStep[], env, ctx) {
      const t0 = performance.now();
      try {
        await base.runSetup(steps, env, ctx);
      } finally {
        if (steps === ctx.task.setup) entry(ctx.task).setupMs = performance.now() - t0;
      }
    },
    async grade(task, ctx) {
      const t0 = performance.now();
      try {
        const watched = watchSaves && task.postSetup.length ? goldFilesOf(task).map((g) => g.guestPath) : [];
        const before = await guestMtimes(ctx.env, watched);
        const verdict = await base.grade(task, ctx);
        entry(task).verdict = verdict;
        if (before.size) {
          const after = await guestMtimes(ctx.env, [...before.keys()]);
          entry(task).unsaved = [...before].filter(([p, t]) => after.get(p) === t).map(([p]) => p);
        }
        return verdict;
      } finally {
        entry(task).gradeMs = performance.now() - t0;
      }
    },
  };
}

function stamp(now = new Date()): string {
  return now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
}

async function evidenceDir(outDir: string): Promise<string> {
  await mkdir(outDir, { recursive: true });
  for (let i = 1; ; i++) {
    const dir = join(outDir, `selftest-gold-${stamp()}${i > 1 ? `-${i}` : ''}`);
    try {
      await mkdir(dir);
      return dir;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
}

/** Why a verdict is no metric's verdict (the postconfig failed, grading failed before any check), or undefined. */
export function notGradedBy(v: RuleVerdict | undefined): string | undefined {
  if (!v || v.metrics.length > 0) return undefined;
  return v.error;
}

/** Modification times (ns since the epoch, as text) of guest files; a file that cannot be read is left out. */
async function guestMtimes(env: Environment, paths: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const p of paths) {
    const r = await env.run(['date', '-r', p, '+%s%N'], { timeoutMs: 10_000 }).catch(() => undefined);
    const t = r?.exitCode === 0 ? r.stdout.trim() : '';
    if (/^\d+$/.test(t)) out.set(p, t);
  }
  return out;
}

/** The verdict's reason and each failing check's reason, in one line. */
export function verdictWhy(v: RuleVerdict | undefined): string | undefined {
  if (!v) return undefined;
  const failing = v.metrics
    .filter((m) => m.score < 1)
    .map(
      (m) =>
        `${m.metric}${m.pointer ? ` (${m.pointer})` : ''}: ${m.error ?? m.reason ?? `score ${formatScore(m.score)}`}`,
    );
  // The verdict's own reason repeats its failing checks' reasons; it is told only when no check failed.
  const parts = failing.length ? failing : [v.error, v.reason].filter((s): s is string => !!s);
  return parts.length ? [...new Set(parts)].join('; ') : undefined;
}

const officeExtensions = new Set([
  '.xlsx',
  '.xls',
  '.ods',
  '.csv',
  '.docx',
  '.doc',
  '.odt',
  '.pptx',
  '.ppt',
  '.odp',
  '.rtf',
]);

/** The application a document is saved by here, for the report's wording. */
function appOf(guestPath: string): string {
  return officeExtensions.has(extname(guestPath).toLowerCase()) ? 'LibreOffice' : 'the application';
}

/** Each gold file graded against itself, untouched, by its own metric under the task's profile. */
async function untouchedGold(
  task: Task,
  downloads: string | undefined,
  cacheDir: string,
): Promise<NonNullable<GoldSelfTestReport['untouched']>> {
  const out: NonNullable<GoldSelfTestReport['untouched']> = [];
  for (const [i, g] of goldFilesOf(task).entries()) {
    let path: string;
    if (g.source.kind === 'local') path = g.source.path;
    else {
      path = join(cacheDir, `gold-${i}${extname(g.guestPath)}`);
      await mkdir(cacheDir, { recursive: true });
      await writeFile(path, await fetchDownload(g.source.url, { downloads }));
    }
    const t = await tryMetric(g.metric, path, path, g.check.options, profileOf(task)).catch((e: Error) => ({
      score: 0,
      reason: `metric failed: ${e.message}`,
    }));
    out.push({ file: path, metric: g.metric, score: t.score, reason: t.reason });
  }
  return out;
}

export async function goldSelfTest(
  tasks: Task[],
  options: GoldSelfTestOptions,
): Promise<GoldSelfTestOutcome> {
  const dir = await evidenceDir(options.outDir);
  const log = options.log ?? (() => {});
  const base = await partsWith(options.parts);
  const noopTimes: Times = new Map();
  const goldTimes: Times = new Map();
  const common = {
    outDir: dir,
    parallel: options.parallel,
    args: options.args,
    env: options.env,
    signal: options.signal,
    taskTimeoutMs: options.taskTimeoutMs ?? 300_000,
    screen: { width: 1920, height: 1080 },
    ...(options.downloads ? { downloads: options.downloads } : {}),
  };
  const started = new Map<string, number>();
  const taskMs = new Map<string, number>();
  const progress = (trial: string) => (e: RunEvent) => {
    if (e.kind === 'task.started') started.set(`${trial}\0${e.taskKey}`, Date.parse(e.at));
    if (e.kind === 'task.finished') {
      const t0 = started.get(`${trial}\0${e.taskKey}`);
      if (t0 !== undefined) taskMs.set(`${trial}\0${e.taskKey}`, Date.parse(e.at) - t0);
      log(`  ${trial} ${e.taskKey}: ${e.state}, score ${e.score ?? '-'}`);
    }
    options.onEvent?.(e);
  };

  log(`noop: ${tasks.length} task(s)…`);
  const noop = await runTrial('noop', tasks, {
    ...common,
    agent: 'noop',
    agentName: 'noop',
    parts: timedParts(base, noopTimes),
    onEvent: progress('noop'),
  });
  const goldTasks = tasks.filter((t) => !noGoldReason(t));
  let gold: Awaited<ReturnType<typeof runTrial>> | undefined;
  if (goldTasks.length && !options.signal?.aborted) {
    log(`gold: ${goldTasks.length} task(s)…`);
    gold = await runTrial('oracle', goldTasks, {
      ...common,
      agent: () => new GoldAgent({ downloads: options.downloads }),
      agentName: 'gold',
      parts: timedParts(base, goldTimes, true),
      onEvent: progress('gold'),
    });
  }

  const reports: GoldSelfTestReport[] = [];
  for (const task of tasks) {
    const key = taskKeyOf(task);
    const n = noop.results.get(key)!;
    const nt = noopTimes.get(key) ?? {};
    const noopPhase: PhaseResult = {
      ...n,
      ms: taskMs.get(`noop\0${key}`),
      setupMs: nt.setupMs,
      gradeMs: nt.gradeMs,
      why: verdictWhy(nt.verdict),
      notGraded: notGradedBy(nt.verdict),
    };
    const setup = {
      ok: !setupFailed.has(n.state) && nt.setupMs !== undefined,
      ms: nt.setupMs,
      ...(setupFailed.has(n.state) ? { error: n.error } : {}),
    };
    const why = noGoldReason(task);
    if (why || !gold) {
      reports.push({
        key,
        file: task.file,
        verdict: 'no gold file',
        reason: why ?? 'the gold trial did not run (stopped)',
        setup,
        noop: noopPhase,
      });
      continue;
    }
    const g = gold.results.get(key)!;
    const gt = goldTimes.get(key) ?? {};
    const goldPhase: PhaseResult = {
      ...g,
      trial: 'oracle',
      ms: taskMs.get(`gold\0${key}`),
      setupMs: gt.setupMs,
      gradeMs: gt.gradeMs,
      why: verdictWhy(gt.verdict),
      notGraded: notGradedBy(gt.verdict),
    };
    const unsaved = gt.unsaved ?? [];
    if (unsaved.length) goldPhase.unsaved = unsaved;
    const j = judgeSelfTest(goldPhase, noopPhase);
    const reason =
      j.verdict === 'sound'
        ? 'the gold file scored 1 after its round trip through the application, doing nothing scored 0'
        : j.reason.replace(/\boracle\b/g, 'gold');
    const report: GoldSelfTestReport = {
      key,
      file: task.file,
      verdict: j.verdict,
      reason,
      setup,
      noop: noopPhase,
      gold: goldPhase,
    };
    const ungraded = [
      noopPhase.notGraded && `noop: ${noopPhase.notGraded}`,
      goldPhase.notGraded && `gold: ${goldPhase.notGraded}`,
    ].filter((x): x is string => !!x);
    if (j.verdict !== 'broken setup' && ungraded.length) {
      // A score of 0 from a postconfig that failed says nothing about the task: the metric never ran.
      report.verdict = 'broken setup';
      report.reason = `the metrics never ran (${ungraded.join('; ')})`;
    } else if (unsaved.length) {
      // The postconfig was to save the document through the application; a gold graded as it was put in place
      // proves nothing about its round trip.
      report.verdict = 'not saved by the application';
      report.reason = `the postconfig did not save ${unsaved.join(', ')} before grading (its modification time did not change), so the gold was graded as put in place (score ${formatScore(g.score)}) and its round trip through the application is untested`;
    } else if (j.verdict === 'too strict') {
      report.untouched = await untouchedGold(
        task,
        options.downloads,
        join(dir, 'gold-files', key.replace('/', '_')),
      );
      const accepted = report.untouched.every((u) => u.score >= 1);
      const app = appOf(goldFilesOf(task)[0].guestPath);
      if (accepted) {
        report.verdict = 'gold lost in the round trip';
        report.reason = `the gold file scores 1 untouched but ${formatScore(g.score)} after ${app} saves it: it loses ${goldPhase.why ?? 'what the metric checks'}`;
      } else {
        const bad = report.untouched.filter((u) => u.score < 1);
        report.reason = `the metric does not accept its own gold file, untouched: ${bad.map((u) => `${u.metric}: ${u.reason}`).join('; ')}`;
      }
    }
    reports.push(report);
  }
  const runDirs = { noop: noop.runDir, ...(gold ? { gold: gold.runDir } : {}) };
  const doc = {
    createdAt: new Date().toISOString(),
    oracle: 'gold',
    runs: Object.fromEntries(Object.entries(runDirs).map(([k, v]) => [k, relative(dir, v)])),
    tasks: reports,
  };
  const tmp = join(dir, '.selftest.json.tmp');
  await writeFile(tmp, JSON.stringify(doc, null, 2) + '\n');
  await rename(tmp, join(dir, 'selftest.json'));
  return { dir, reports, runDirs };
}

const seconds = (ms: number | undefined) => (ms === undefined ? '' : ` ${(ms / 1000).toFixed(1)} s`);

function phaseCell(p: PhaseResult | undefined): string {
  if (!p) return '-';
  const graded = p.state === 'success' || p.state === 'max_steps_error';
  return `${p.notGraded ? 'not graded' : graded ? formatScore(p.score) : p.state}${p.unsaved?.length ? ' unsaved' : ''}${seconds(p.ms)}`;
}

/** One line per task: setup ok / failed with its time, noop and gold scores with their times, the verdict. */
export function goldSelfTestTable(reports: GoldSelfTestReport[]): string {
  return formatTable(
    ['task', 'setup', 'noop', 'gold', 'verdict', 'reason'],
    reports.map((r) => [
      r.key,
      `${r.setup.ok ? 'ok' : 'failed'}${seconds(r.setup.ms)}`,
      phaseCell(r.noop),
      phaseCell(r.gold),
      r.verdict,
      r.reason,
    ]),
  );
}

/** The tally lines under the table: setup ok n/N, noop → 0 n/N, gold → 1 n/M (a gold the application never saved does not count). */
export function goldSelfTestSummary(reports: GoldSelfTestReport[]): string[] {
  const n = reports.length;
  const setupOk = reports.filter((r) => r.setup.ok).length;
  const noop0 = reports.filter(
    (r) =>
      (r.noop.state === 'success' || r.noop.state === 'max_steps_error') &&
      !r.noop.notGraded &&
      r.noop.score === 0,
  ).length;
  const withGold = reports.filter((r) => r.gold);
  const gold1 = withGold.filter(
    (r) =>
      r.gold &&
      (r.gold.state === 'success' || r.gold.state === 'max_steps_error') &&
      !r.gold.notGraded &&
      !r.gold.unsaved?.length &&
      r.gold.score === 1,
  ).length;
  return [
    `setup ok ${setupOk}/${n}, noop → 0 ${noop0}/${n}, gold → 1 ${gold1}/${withGold.length}${withGold.length < n ? ` (${n - withGold.length} without a gold file)` : ''}`,
  ];
}
