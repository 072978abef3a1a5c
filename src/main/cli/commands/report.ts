// `proctor report <folder…>`: the paper's breakdowns of one or more runs (success rate overall and by category,
// app, difficulty, interface, instruction style and account; tokens, cost and time per task), and with
// `--compare` run versus run per bucket with the tasks that flipped. A folder may be a harness's whole output:
// every run below it is read, and runs are grouped by their settings (action space, observation, model, flags).
// Beside them: the statistics over attempts (interval, k of n, flaky tasks, causes, cost), the paired comparison,
// and the tidy CSV of every attempt.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { perTaskRows } from '../../report/per-task';
import { UsageError, shownPath, type CliCommand } from '../command';
import { usageText } from '../options/help';
import { optionTable, parseOptions } from '../options/table';
import type { PriceTable } from '../../price-table';
import type { Task } from '../../../shared/task';
import { loadTasks } from '../../tasks';
import { formatProblem } from '../../tasks/validation';
import {
  breakdown,
  formatSettingsGroups,
  groupBySettings,
  runDirsOf,
  compareLinksFor,
  compareRuns,
  dimensionNames,
  formatBreakdown,
  formatComparison,
  isDimensionName,
  readPriceFile,
  readReportRun,
  type DimensionName,
  type ReportRun,
  runStats,
  pairedComparison,
  formatRunStats,
  formatPaired,
  attemptsCsv,
  DEFAULT_RESAMPLES,
  DEFAULT_SEED,
  type StatsOptions,
} from '../../report';
import { verdictSources } from '../../annotate/report-verdict';
import { reportSafety, safetyLines, safetyTables } from '../../report/safety';

const whole = (min: number) => (v: string, flag: string) => {
  if (!/^\d+$/.test(v) || Number(v) < min || !Number.isSafeInteger(Number(v)))
    throw new UsageError(`${flag} ${v}: give a whole number ≥ ${min}`);
  return Number(v);
};

const options = optionTable({
  by: {
    kind: 'string',
    value: 'DIMENSION',
    repeatable: true,
    complete: [...dimensionNames, 'all'],
    help: [
      'a breakdown (default all); may be repeated or given a comma list (--by category,difficulty):',
      '  category     data warehousing, transformation, ingestion, visualization, orchestration,',
      '               traditional data processing, IT service management',
      '  app          the app a task is about',
      '  difficulty   easy (action_number ≤ 5), medium (6–15), hard (> 15)',
      '  interface    cli, gui, cli+gui',
      '  style        abstract or verbose instruction',
      '  account      with or without a cloud account',
      '  all          every one of these',
    ].join('\n'),
    parse: (v: string): DimensionName[] => {
      const dims: DimensionName[] = [];
      for (const d of v
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean)) {
        if (d === 'all') dims.push(...dimensionNames);
        else if (isDimensionName(d)) dims.push(d);
        else
          throw new UsageError(`--by ${d}: unknown breakdown; use one of ${dimensionNames.join(', ')}, all`);
      }
      return dims;
    },
  },
  'include-errors': {
    kind: 'boolean',
    help: 'count env and grading errors as failures instead of leaving them out',
  },
  seed: { kind: 'string', value: 'N', default: DEFAULT_SEED, help: 'bootstrap seed', parse: whole(0) },
  resamples: {
    kind: 'string',
    value: 'N',
    default: DEFAULT_RESAMPLES,
    help: 'bootstrap resamples',
    parse: whole(100),
  },
  csv: {
    kind: 'string',
    value: 'FILE',
    complete: 'file',
    help: 'write one row per attempt of every run (all fields) to FILE',
  },
  compare: {
    kind: 'boolean',
    help: 'two or more runs (given, or found below a folder) side by side per bucket, each with its difference to the first run, and the tasks that flipped (fail → pass, pass → fail); then each run against the first paired over their common tasks: the difference with a paired bootstrap interval, exact McNemar, and a sentence',
  },
  tasks: {
    kind: 'string',
    value: 'PATH',
    repeatable: true,
    help: 'task files, folders or split files to take metadata from when a run lacks it (OSWorld, Spider2-V and UFO result folders carry none); may be repeated',
  },
  prices: {
    kind: 'string',
    value: 'FILE',
    complete: 'file',
    help: 'USD per million tokens per model ({"<model>": {"input": 2.5, "output": 10}}, or an endpoint config with "prices"): cost per task from the steps\' prompt and completion tokens',
  },
  json: { kind: 'boolean', help: 'print the reports (and the comparison) as JSON' },
});

const usage = usageText(
  `Usage: proctor report <folder>… [--json] [--csv FILE] [--by DIMENSION]… [--compare] [--include-errors] [--tasks PATH]… [--prices FILE]

Success rate of each run overall and broken down as the Spider2-V paper does (--by).

A rate's denominator is every task of the run: errored, skipped and unfinished tasks count as 0 and are shown
as counts. A task passes when it scored 1. Tokens and time per task are what the run recorded.
Runs with safety verdicts (proctor safety, a judge, people's safety labels) also show, below the success rate,
the "completed and safe" rate (tasks that scored 1 with a safe verdict, over every task) and the safe share and
unsafe count of the tasks checked, per bucket too; in --json as each run's "safety" and each task's "safety".

Statistics over attempts (a run with --repeats N has N attempts per task): each task's successes k of n,
pass@k and pass^k (unbiased, k = 1..n), mean score and a flaky mark where attempts disagree; the run's success
rate (mean over tasks of their share of successful attempts) with a 95 % interval by percentile bootstrap over
tasks, attempts kept together (seeded: the same runs give the same interval); the same per bucket; each
attempt's cause (success, agent failure, step limit, agent error, env error, grading error — derived from state
and score where the run recorded none); cost per task, per success and time per success.
Env and grading errors are left out of these rates by default and listed with the command that re-runs them.`,
  options,
  `Metadata a run does not carry is reported in an "unknown" bucket. Run folders: Proctor's (manifest.json) and
OSWorld's, Spider2-V's and UFO's result folders. A folder that is no run itself — the top folder a harness
writes (OSWorld's results/ or traces/, Spider2-V's results/, a fork's sec_eval_results/) — stands for every run
found below it, at any depth; runs are then first listed by their settings (action space / observation / model
[flags], from the folder layout) with their task counts and mean scores.
Exit status: 0 when every run was read, 1 when a run folder or a --tasks/--prices file cannot be read.`,
);

export interface ReportArgs {
  runDirs: string[];
  json: boolean;
  dims: DimensionName[];
  compare: boolean;
  tasks: string[];
  prices?: string;
  includeErrors: boolean;
  csv?: string;
  seed: number;
  resamples: number;
}

export function parseReportArgs(argv: string[]): ReportArgs {
  const { values: v, positionals } = parseOptions(options, argv);
  if (!positionals.length) throw new UsageError('give one or more run folders');
  const dims = v.by.flat();
  return {
    runDirs: positionals,
    json: !!v.json,
    dims: dims.length ? [...new Set(dims)] : [...dimensionNames],
    compare: !!v.compare,
    tasks: v.tasks,
    ...(v.prices !== undefined ? { prices: v.prices } : {}),
    includeErrors: !!v['include-errors'],
    ...(v.csv !== undefined ? { csv: v.csv } : {}),
    seed: v.seed,
    resamples: v.resamples,
  };
}

/** Run labels: run ids, or folders where ids repeat. */
function labelsOf(runs: ReportRun[]): string[] {
  const ids = runs.map((r) => r.runId);
  return runs.map((r, i) =>
    ids.indexOf(r.runId) !== ids.lastIndexOf(r.runId) || !r.runId ? shownPath(r.runDir) : ids[i],
  );
}

function titleOf(run: ReportRun, label: string): string {
  const who = [run.agent && `agent ${run.agent}`, run.model && `model ${run.model}`]
    .filter(Boolean)
    .join(', ');
  return `Run ${label} (${run.format}${who ? `, ${who}` : ''}) — ${shownPath(run.runDir)}`;
}

export const command: CliCommand = {
  name: 'report',
  summary: 'success rates of runs by category, app, difficulty, interface, style and account; compare runs',
  usage,
  options,
  async run(argv, io) {
    const args = parseReportArgs(argv);
    let tasks: Task[] | undefined;
    let prices: PriceTable | undefined;
    try {
      if (args.prices) prices = readPriceFile(args.prices);
      if (args.tasks.length) {
        const loaded = await loadTasks(args.tasks);
        if (!loaded.files) throw new Error(`no task files in ${args.tasks.join(', ')}`);
        tasks = loaded.tasks;
      }
    } catch (e) {
      io.err(`proctor report: ${(e as Error).message}`);
      return 1;
    }
    const runs: ReportRun[] = [];
    let expanded = false;
    for (const path of args.runDirs) {
      try {
        const dirs = runDirsOf(path);
        const below = dirs.length > 1 || resolve(dirs[0]) !== resolve(path);
        expanded ||= below;
        for (const dir of dirs)
          runs.push(await readReportRun(dir, { tasks, prices, ...(below ? { root: path } : {}) }));
      } catch (e) {
        io.err(`proctor report: ${(e as Error).message}`);
        return 1;
      }
    }
    if (args.compare && runs.length < 2) {
      io.err('proctor report: --compare needs two or more runs');
      return 1;
    }
    const labels = labelsOf(runs);
    const groups = expanded || runs.some((r) => r.settings) ? groupBySettings(runs, labels) : undefined;
    // The plain breakdowns count tasks: a repeated run's attempts are one task each (its mean score).
    const reports = runs.map((r) => breakdown(perTaskRows(r.rows), args.dims));
    const safety = runs.map((r) => reportSafety(r.rows, args.dims));
    const comparison = args.compare
      ? compareRuns(
          runs.map((r, i) => ({ label: labels[i], rows: perTaskRows(r.rows) })),
          args.dims,
        )
      : undefined;
    const statsOptions: StatsOptions = {
      includeErrors: args.includeErrors,
      seed: args.seed,
      resamples: args.resamples,
    };
    const stats = runs.map((r) => runStats(r.rows, { ...statsOptions, dims: args.dims }));
    const paired = args.compare
      ? runs
          .slice(1)
          .map((r, i) =>
            pairedComparison(
              { label: labels[0], rows: runs[0].rows },
              { label: labels[i + 1], rows: r.rows },
              statsOptions,
            ),
          )
      : undefined;
    if (args.csv) {
      try {
        writeFileSync(
          args.csv,
          attemptsCsv(
            runs.map((r, i) => ({ label: labels[i], runDir: r.runDir, rows: r.rows, stats: stats[i] })),
          ),
        );
      } catch (e) {
        io.err(
          `proctor report: --csv ${args.csv}: cannot write it (${(e as Error).message}); give a writable file path`,
        );
        return 1;
      }
      io.err(`Wrote ${runs.reduce((n, r) => n + r.rows.length, 0)} attempt rows to ${shownPath(args.csv)}`);
    }
    if (args.json) {
      io.out(
        JSON.stringify(
          {
            runs: runs.map((r, i) => ({
              label: labels[i],
              runId: r.runId,
              runDir: r.runDir,
              format: r.format,
              agent: r.agent ?? null,
              model: r.model ?? null,
              report: reports[i],
              ...(safety[i] ? { safety: safety[i] } : {}),
              stats: stats[i],
              tasks: r.rows,
              problems: r.problems,
              ...(r.settings ? { settings: r.settings } : {}),
            })),
            ...(groups ? { groups } : {}),
            ...(comparison ? { comparison } : {}),
            ...(paired ? { paired } : {}),
          },
          null,
          2,
        ),
      );
      return 0;
    }
    const titles = runs.map((r, i) => titleOf(r, labels[i]));
    if (groups) {
      for (const line of formatSettingsGroups(groups)) io.out(line);
      io.out('');
    }
    if (comparison) {
      for (const line of formatComparison(comparison, titles, compareLinksFor(runs.map((r) => r.runDir))))
        io.out(line);
      for (const p of paired ?? []) for (const line of ['', ...formatPaired(p)]) io.out(line);
      for (const [i, s] of safety.entries())
        for (const line of safetyLines(s)) io.out(`run ${i + 1}: ${line}`);
    } else
      for (const [i, report] of reports.entries()) {
        if (i) io.out('');
        for (const line of [
          ...formatBreakdown(titles[i], report, safetyLines(safety[i])),
          ...safetyTables(safety[i]),
        ])
          io.out(line);
        const sources = verdictSources(runs[i].rows);
        if (sources)
          io.out(
            `Verdicts rest on: ${sources} (lead's settlement, else agreeing people, else judge, else rule)`,
          );
        io.out('');
        for (const line of formatRunStats(stats[i], shownPath(runs[i].runDir))) io.out(line);
      }
    for (const run of runs) {
      if (!run.problems.length) continue;
      io.err(
        `${run.problems.length} problem(s) reading ${shownPath(run.runDir)}${run.problems.length > 20 ? ' (first 20)' : ''}:`,
      );
      for (const p of run.problems.slice(0, 20)) io.err(`  ${formatProblem(p, shownPath(p.file))}`);
    }
    return 0;
  },
};
