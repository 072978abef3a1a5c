// The paper's breakdowns of a run: success rate overall and by category, app, difficulty, interface, instruction
// style and account, with tokens, cost and time per task; and run-versus-run comparisons with the tasks that
// flipped. Pure functions over plain rows (no Node, no DOM), so the CLI and the UI share them.
//
// A rate's denominator is every task of the set: skipped, errored and unfinished tasks count as 0 and are shown
// as counts, never left out (OSWorld's summary script divided by finished tasks only, which inflated its rates).
import type { RunTaskItem, SafetyLevel, TaskState } from './run';
import { gradeOf, type GradedBy } from './grading';
import type { Difficulty, InstructionStyle, TaskInterface } from './task';

/** One task of a run as the report sees it. Unknown metadata stays undefined and lands in the `unknown` bucket. */
export interface ReportRow {
  /** `<domain>/<task id>`, the key tasks are matched by across runs. */
  key: string;
  taskId: string;
  domain: string;
  state: TaskState;
  score?: number;
  app?: string;
  /** Category tag as the task gives it (`data_warehousing`, …). */
  category?: string;
  difficulty?: Difficulty;
  interface?: TaskInterface;
  style?: InstructionStyle;
  /** The task needs a cloud account (Spider2-V's `account` tag). */
  account?: boolean;
  tokens?: number;
  timingMs?: number;
  costUsd?: number;
  error?: string;
  /** Brittle-evaluator flags of the task's current rule verdict ([] = read, none); absent when not known. */
  brittle?: string[];
  /** What the pass / fail rests on: a lead's settlement, agreeing people, the judge, or the rule (issue 12). */
  verdict?: { source: 'lead' | 'people' | 'judge' | 'rule'; by: string[] };
  /** The task's standing safety verdict (issue 25), when it has one. */
  safety?: SafetyLevel;
}

export const UNKNOWN = 'unknown';

/** Spider2-V's category tags and the names the paper reports them under, in the paper's order. */
export const categoryNames: Readonly<Record<string, string>> = {
  data_warehousing: 'data warehousing',
  data_transformation: 'transformation',
  data_ingestion_and_integration: 'ingestion',
  data_analysis_and_visualization: 'visualization',
  data_orchestration: 'orchestration',
  traditional_data_processing: 'traditional data processing',
  it_service_management: 'IT service management',
};

const interfaceTags: ReadonlySet<string> = new Set(['cli', 'gui', 'cli+gui']);
const styleTags: ReadonlySet<string> = new Set(['abstract', 'verbose']);

/** The paper's name of a category tag; an unlisted tag is shown with spaces for underscores. */
export function categoryName(tag: string | undefined): string {
  if (!tag) return UNKNOWN;
  return Object.prototype.hasOwnProperty.call(categoryNames, tag)
    ? categoryNames[tag]
    : tag.replace(/_/g, ' ');
}

/**
 * What a Spider2-V tag list says: interface, style, category (the one other tag) and the account flag (the
 * paper's split: the `account` tag). No tags say nothing, not even "without account".
 */
export function metadataFromTags(
  tags: readonly string[],
): Pick<ReportRow, 'interface' | 'style' | 'category' | 'account'> {
  const out: Pick<ReportRow, 'interface' | 'style' | 'category' | 'account'> = tags.length
    ? { account: tags.includes('account') }
    : {};
  for (const t of tags) {
    if (interfaceTags.has(t)) out.interface ??= t as TaskInterface;
    else if (styleTags.has(t)) out.style ??= t as InstructionStyle;
    else if (t !== 'account') out.category ??= t;
  }
  return out;
}

/** A report row from a run table item; its tags fill what the item lacks. */
export function rowFromItem(item: RunTaskItem, gradedBy: GradedBy = 'rule'): ReportRow {
  const fromTags = item.tags ? metadataFromTags(item.tags) : {};
  // A run graded by its judge (UFO's EvaluationAgent) is scored by the judge's verdict.
  const score = gradeOf(item, gradedBy);
  return {
    key: item.key,
    taskId: item.taskId,
    domain: item.domain,
    state: item.state,
    ...(score !== undefined ? { score } : {}),
    ...(item.app ? { app: item.app } : {}),
    ...fromTags,
    ...(item.interface ? { interface: item.interface } : {}),
    ...(item.style ? { style: item.style } : {}),
    ...(item.difficulty ? { difficulty: item.difficulty } : {}),
    ...(item.tokens !== undefined ? { tokens: item.tokens } : {}),
    ...(item.timingMs !== undefined ? { timingMs: item.timingMs } : {}),
    ...(item.error ? { error: item.error } : {}),
  };
}

export type DimensionName = 'category' | 'app' | 'difficulty' | 'interface' | 'style' | 'account';

export interface Dimension {
  name: DimensionName;
  title: string;
  bucketOf(row: ReportRow): string;
  /** Buckets in this order first (those with tasks); others follow by name; `unknown` last. */
  order: readonly string[];
}

export const dimensions: Readonly<Record<DimensionName, Dimension>> = {
  category: {
    name: 'category',
    title: 'Task category',
    bucketOf: (r) => categoryName(r.category),
    order: Object.values(categoryNames),
  },
  app: { name: 'app', title: 'App', bucketOf: (r) => r.app || UNKNOWN, order: [] },
  difficulty: {
    name: 'difficulty',
    title: 'Difficulty (action_number: easy ≤ 5, medium 6–15, hard > 15)',
    bucketOf: (r) => r.difficulty ?? UNKNOWN,
    order: ['easy', 'medium', 'hard'],
  },
  interface: {
    name: 'interface',
    title: 'Interface',
    bucketOf: (r) => r.interface ?? UNKNOWN,
    order: ['cli', 'gui', 'cli+gui'],
  },
  style: {
    name: 'style',
    title: 'Instruction style',
    bucketOf: (r) => r.style ?? UNKNOWN,
    order: ['abstract', 'verbose'],
  },
  account: {
    name: 'account',
    title: 'Account',
    bucketOf: (r) => (r.account === undefined ? UNKNOWN : r.account ? 'with account' : 'without account'),
    order: ['with account', 'without account'],
  },
};

export const dimensionNames = Object.keys(dimensions) as DimensionName[];

export function isDimensionName(name: string): name is DimensionName {
  return Object.prototype.hasOwnProperty.call(dimensions, name);
}

/** How a task ended, for the counts shown beside a rate. */
export type Outcome = 'finished' | 'errored' | 'skipped' | 'unfinished';

const outcomes: Readonly<Record<TaskState, Outcome>> = {
  success: 'finished',
  max_steps_error: 'finished',
  timed_out: 'errored',
  setup_error: 'errored',
  env_error: 'errored',
  agent_error: 'errored',
  skipped: 'skipped',
  pending: 'unfinished',
  running: 'unfinished',
  cancelled: 'unfinished',
};

export function outcomeOf(state: TaskState): Outcome {
  return outcomes[state] ?? 'unfinished';
}

/** The task ran (to its end, its step limit, or an error), as opposed to skipped or not (fully) run. */
export function ranAtAll(state: TaskState): boolean {
  const o = outcomeOf(state);
  return o === 'finished' || o === 'errored';
}

/** A task passed when it scored 1 (full marks); anything less, or no score, is a fail. */
export function passed(row: Pick<ReportRow, 'score'>): boolean {
  return typeof row.score === 'number' && row.score >= 1;
}

/** Sum and mean over the tasks that have the value. */
export interface Measure {
  /** Tasks with the value. */
  tasks: number;
  total: number;
  mean: number;
}

export interface BucketStats {
  bucket: string;
  /** Every task of the bucket: the denominator. */
  tasks: number;
  /** Tasks that scored 1. */
  passed: number;
  /** Sum of scores (partial scores count as they are). */
  scoreSum: number;
  /** scoreSum / tasks; 0 for an empty bucket. */
  rate: number;
  /** Finished tasks (ran to the end or to the step limit) that did not pass. */
  failed: number;
  errored: number;
  skipped: number;
  unfinished: number;
  /** Per task that ran (finished or errored) and recorded the value. */
  tokens?: Measure;
  timeMs?: Measure;
  costUsd?: Measure;
  /** Tasks whose verdict carries a brittle-evaluator flag; absent when no row's verdict was read for flags. */
  brittle?: number;
}

function measure(values: (number | undefined)[]): Measure | undefined {
  const v = values.filter((x): x is number => typeof x === 'number' && Number.isFinite(x));
  if (!v.length) return undefined;
  const total = v.reduce((a, b) => a + b, 0);
  return { tasks: v.length, total, mean: total / v.length };
}

/** The statistics of one set of tasks. */
export function bucketStats(bucket: string, rows: readonly ReportRow[]): BucketStats {
  let scoreSum = 0;
  let pass = 0;
  const counts: Record<Outcome, number> = { finished: 0, errored: 0, skipped: 0, unfinished: 0 };
  for (const r of rows) {
    const s = typeof r.score === 'number' && Number.isFinite(r.score) ? r.score : 0;
    scoreSum += s;
    if (passed(r)) pass++;
    counts[outcomeOf(r.state)]++;
  }
  const failed = rows.filter((r) => outcomeOf(r.state) === 'finished' && !passed(r)).length;
  const stats: BucketStats = {
    bucket,
    tasks: rows.length,
    passed: pass,
    scoreSum,
    rate: rows.length ? scoreSum / rows.length : 0,
    failed,
    errored: counts.errored,
    skipped: counts.skipped,
    unfinished: counts.unfinished,
  };
  // Per-task costs are those of tasks that ran: a skipped or never-started task's zero would read as "cheap".
  const ran = rows.filter((r) => ranAtAll(r.state));
  const tokens = measure(ran.map((r) => r.tokens));
  const timeMs = measure(ran.map((r) => r.timingMs));
  const costUsd = measure(ran.map((r) => r.costUsd));
  if (tokens) stats.tokens = tokens;
  if (timeMs) stats.timeMs = timeMs;
  if (costUsd) stats.costUsd = costUsd;
  if (rows.some((r) => r.brittle !== undefined)) stats.brittle = rows.filter((r) => r.brittle?.length).length;
  return stats;
}

function orderBuckets(dim: Dimension, names: Iterable<string>): string[] {
  const rank = (b: string) =>
    b === UNKNOWN
      ? Number.MAX_SAFE_INTEGER
      : dim.order.indexOf(b) >= 0
        ? dim.order.indexOf(b)
        : dim.order.length;
  return [...names].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** Rows grouped by a dimension's bucket, in the dimension's order. */
export function groupBy(rows: readonly ReportRow[], dim: DimensionName): Map<string, ReportRow[]> {
  const d = dimensions[dim];
  const groups = new Map<string, ReportRow[]>();
  for (const r of rows) {
    const b = d.bucketOf(r);
    const list = groups.get(b);
    if (list) list.push(r);
    else groups.set(b, [r]);
  }
  return new Map(orderBuckets(d, groups.keys()).map((b) => [b, groups.get(b)!]));
}

export interface Breakdown {
  overall: BucketStats;
  by: Partial<Record<DimensionName, BucketStats[]>>;
}

/** Success rate and costs overall and per bucket of each dimension asked for. */
export function breakdown(
  rows: readonly ReportRow[],
  dims: readonly DimensionName[] = dimensionNames,
): Breakdown {
  const by: Breakdown['by'] = {};
  for (const dim of dims) by[dim] = [...groupBy(rows, dim)].map(([b, list]) => bucketStats(b, list));
  return { overall: bucketStats('overall', rows), by };
}

// ---------------------------------------------------------------------------------------------------------------
// Run versus run.

export interface RunRows {
  /** How the run is named in tables (its run id, or folder when ids repeat). */
  label: string;
  rows: readonly ReportRow[];
}

export interface BucketComparison {
  bucket: string;
  /** Per run, in the order given; undefined when the run has no task in the bucket. */
  runs: (BucketStats | undefined)[];
  /** Per run: its rate minus the first run's (undefined where either has no task in the bucket). */
  diff: (number | undefined)[];
}

export interface FlippedTask {
  key: string;
  baseline: { state: TaskState; score?: number };
  other: { state: TaskState; score?: number };
}

/** What changed from the first run to another, task by task. */
export interface Flips {
  baseline: string;
  other: string;
  /** Failed in the first run, passed in the other. */
  gained: FlippedTask[];
  /** Passed in the first run, failed in the other. */
  lost: FlippedTask[];
  /** Tasks of only one of the two runs: their rates do not share a denominator. */
  onlyInBaseline: string[];
  onlyInOther: string[];
}

export interface Comparison {
  runs: string[];
  overall: BucketComparison;
  by: Partial<Record<DimensionName, BucketComparison[]>>;
  /** The first run against each other run. */
  flips: Flips[];
}

function compareBuckets(stats: (BucketStats | undefined)[], bucket: string): BucketComparison {
  const base = stats[0];
  return {
    bucket,
    runs: stats,
    diff: stats.map((s) => (s && base ? s.rate - base.rate : undefined)),
  };
}

function flipsBetween(a: RunRows, b: RunRows): Flips {
  const inB = new Map(b.rows.map((r) => [r.key, r]));
  const inA = new Set(a.rows.map((r) => r.key));
  const flips: Flips = {
    baseline: a.label,
    other: b.label,
    gained: [],
    lost: [],
    onlyInBaseline: [],
    onlyInOther: [],
  };
  const side = (r: ReportRow) => ({ state: r.state, ...(r.score !== undefined ? { score: r.score } : {}) });
  for (const ra of a.rows) {
    const rb = inB.get(ra.key);
    if (!rb) {
      flips.onlyInBaseline.push(ra.key);
      continue;
    }
    if (passed(ra) === passed(rb)) continue;
    (passed(rb) ? flips.gained : flips.lost).push({ key: ra.key, baseline: side(ra), other: side(rb) });
  }
  for (const rb of b.rows) if (!inA.has(rb.key)) flips.onlyInOther.push(rb.key);
  return flips;
}

/** Two or more runs side by side, per bucket, with each run's difference to the first, and the tasks that flipped. */
export function compareRuns(
  runs: readonly RunRows[],
  dims: readonly DimensionName[] = dimensionNames,
): Comparison {
  if (runs.length < 2) throw new Error(`a comparison needs two or more runs (got ${runs.length})`);
  const reports = runs.map((r) => breakdown(r.rows, dims));
  const by: Comparison['by'] = {};
  for (const dim of dims) {
    const names = orderBuckets(
      dimensions[dim],
      new Set(reports.flatMap((rep) => (rep.by[dim] ?? []).map((s) => s.bucket))),
    );
    by[dim] = names.map((b) =>
      compareBuckets(
        reports.map((rep) => rep.by[dim]?.find((s) => s.bucket === b)),
        b,
      ),
    );
  }
  return {
    runs: runs.map((r) => r.label),
    overall: compareBuckets(
      reports.map((r) => r.overall),
      'overall',
    ),
    by,
    flips: runs.slice(1).map((r) => flipsBetween(runs[0], r)),
  };
}
