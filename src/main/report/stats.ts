// Statistics over task attempts: per task k of n, the unbiased pass@k and pass^k, mean score and a flaky mark;
// per run the success rate with a seeded bootstrap interval over tasks (attempts kept together), causes, costs
// and breakdowns; and two runs compared pair-wise (paired bootstrap, exact McNemar). Pure: rows in, numbers out.
import type { AttemptCause, AttemptCost } from '../../shared/run';
import type { ReportRow } from '../../shared/breakdown';
import { dimensions, type DimensionName } from '../../shared/breakdown';
import type {
  AttemptStat,
  BucketRate,
  CostStat,
  Interval,
  PairedComparison,
  RateStat,
  RunStats,
  TaskStat,
} from '../../shared/run-stats';

/** A report row of one attempt: the run item's attempt number, cause and cost where the run recorded them. */
export interface AttemptRow extends ReportRow {
  attempt?: number;
  cause?: AttemptCause;
  cost?: AttemptCost;
}

export interface StatsOptions {
  /** Count env and grading errors as failures instead of leaving them out. */
  includeErrors?: boolean;
  /** Bootstrap resamples (default 2000). */
  resamples?: number;
  /** PRNG seed (default 24): the same rows and seed give the same interval. */
  seed?: number;
  /** Interval level (default 0.95). */
  level?: number;
  /** Dimensions to break the rate down by (default none). */
  dims?: readonly DimensionName[];
}

export const DEFAULT_SEED = 24;
export const DEFAULT_RESAMPLES = 2000;

// ---------------------------------------------------------------------------------------------------------------
// Estimators.

/**
 * Unbiased pass@k (Chen et al. 2021) from n attempts with c successes: 1 − C(n−c, k) / C(n, k), the chance that at
 * least one of k attempts drawn without replacement succeeded. Computed as a product (no large binomials).
 */
export function passAtK(n: number, c: number, k: number): number {
  checkNck(n, c, k);
  if (n - c < k) return 1;
  let allFail = 1;
  for (let i = 0; i < k; i++) allFail *= (n - c - i) / (n - i);
  return 1 - allFail;
}

/** pass^k: C(c, k) / C(n, k), the chance that all of k attempts drawn without replacement succeeded. */
export function passHatK(n: number, c: number, k: number): number {
  checkNck(n, c, k);
  if (c < k) return 0;
  let all = 1;
  for (let i = 0; i < k; i++) all *= (c - i) / (n - i);
  return all;
}

function checkNck(n: number, c: number, k: number): void {
  if (
    !Number.isInteger(n) ||
    !Number.isInteger(c) ||
    !Number.isInteger(k) ||
    n < 1 ||
    c < 0 ||
    c > n ||
    k < 1 ||
    k > n
  )
    throw new RangeError(`pass@k needs whole numbers 0 ≤ c ≤ n and 1 ≤ k ≤ n (got n=${n}, c=${c}, k=${k})`);
}

/** Exact two-sided McNemar test: binomial(b + c, ½) on the discordant pairs, p = min(1, 2·P(X ≤ min(b, c))). */
export function mcnemarExact(b: number, c: number): number {
  const n = b + c;
  if (n === 0) return 1;
  const m = Math.min(b, c);
  // Terms C(n, i)/2^n built in log space so large tables do not overflow.
  let logTerm = -n * Math.LN2; // i = 0
  let tail = Math.exp(logTerm);
  for (let i = 1; i <= m; i++) {
    logTerm += Math.log((n - i + 1) / i);
    tail += Math.exp(logTerm);
  }
  return Math.min(1, 2 * tail);
}

/** A small seeded PRNG (mulberry32): uniform numbers in [0, 1); seeds the bootstrap's xorshift32. */
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Percentile bootstrap interval of the mean of `values` (one value per task: the attempts of a task stay
 * together because the task is what is resampled).
 */
export function bootstrapMeanCi(
  values: ArrayLike<number>,
  opts: { resamples?: number; seed?: number; level?: number } = {},
): Interval {
  const level = opts.level ?? 0.95;
  const n = values.length;
  if (n === 0) return { low: 0, high: 0, level };
  const b = opts.resamples ?? DEFAULT_RESAMPLES;
  const v = Float64Array.from(values as ArrayLike<number>);
  // Two xorshift32 streams inline, interleaved (the draw is the whole cost: resamples × tasks of them; each stream
  // is a chain of dependent steps, two of them keep the processor busy), their states from the seed.
  const seed = seededRandom(opts.seed ?? DEFAULT_SEED);
  let s = (seed() * 4294967296) | 0 || 1;
  let z = (seed() * 4294967296) | 0 || 1;
  const scale = n / 4294967296;
  const means = new Float64Array(b);
  const odd = n & 1;
  for (let r = 0; r < b; r++) {
    let sum = 0;
    let sum2 = 0;
    for (let i = odd; i < n; i += 2) {
      s ^= s << 13;
      s ^= s >>> 17;
      s ^= s << 5;
      z ^= z << 13;
      z ^= z >>> 17;
      z ^= z << 5;
      sum += v[((s >>> 0) * scale) | 0];
      sum2 += v[((z >>> 0) * scale) | 0];
    }
    if (odd) {
      s ^= s << 13;
      s ^= s >>> 17;
      s ^= s << 5;
      sum += v[((s >>> 0) * scale) | 0];
    }
    means[r] = (sum + sum2) / n;
  }
  means.sort();
  const alpha = (1 - level) / 2;
  const lo = means[Math.min(b - 1, Math.max(0, Math.floor(alpha * b)))];
  const hi = means[Math.min(b - 1, Math.max(0, Math.ceil((1 - alpha) * b) - 1))];
  return { low: lo, high: hi, level };
}

export function methodName(opts: StatsOptions = {}, paired = false): string {
  const level = Math.round((opts.level ?? 0.95) * 100);
  return `${level} % CI: ${paired ? 'paired ' : ''}percentile bootstrap over tasks (attempts kept together), ${opts.resamples ?? DEFAULT_RESAMPLES} resamples, seed ${opts.seed ?? DEFAULT_SEED}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Causes.

/**
 * The cause of an attempt: the run's own (`cause`), else derived from its state and score the way the runner
 * attributes them — setup_error, env_error and timed_out → env_error; agent_error → agent_error; the step limit →
 * step_limit (success if it still scored); a finished task → success when score > 0, agent_failure when 0, and
 * grading_error when it has no score. Pending, running, cancelled and skipped attempts have none (undefined).
 */
export function causeOf(row: Pick<AttemptRow, 'cause' | 'state' | 'score'>): {
  cause?: AttemptCause;
  derived: boolean;
} {
  if (row.cause) return { cause: row.cause, derived: false };
  const scored = typeof row.score === 'number' && Number.isFinite(row.score);
  const ok = scored && (row.score as number) > 0;
  switch (row.state) {
    case 'setup_error':
    case 'env_error':
    case 'timed_out':
      return { cause: 'env_error', derived: true };
    case 'agent_error':
      return { cause: 'agent_error', derived: true };
    case 'max_steps_error':
      return { cause: ok ? 'success' : 'step_limit', derived: true };
    case 'success':
      return { cause: !scored ? 'grading_error' : ok ? 'success' : 'agent_failure', derived: true };
    default:
      return { derived: true };
  }
}

/** Causes that say nothing about the agent: left out of rates unless asked for. */
export const errorCauses: ReadonlySet<AttemptCause> = new Set(['env_error', 'grading_error']);

// ---------------------------------------------------------------------------------------------------------------
// Per task and per run.

const taskOf = (r: Pick<ReportRow, 'domain' | 'taskId'>) => `${r.domain}/${r.taskId}`;

/** Rows grouped into tasks (by domain and task id), attempts in attempt order. */
export function groupAttempts<R extends AttemptRow>(rows: readonly R[]): Map<string, R[]> {
  const tasks = new Map<string, R[]>();
  for (const r of rows) {
    const t = taskOf(r);
    const list = tasks.get(t);
    if (list) list.push(r);
    else tasks.set(t, [r]);
  }
  for (const list of tasks.values())
    if (list.some((r) => r.attempt !== undefined)) list.sort((a, b) => (a.attempt ?? 0) - (b.attempt ?? 0));
  return tasks;
}

export function taskStat(task: string, rows: readonly AttemptRow[], includeErrors = false): TaskStat {
  const attempts: AttemptStat[] = rows.map((r, i) => {
    const { cause, derived } = causeOf(r);
    const usd = r.cost?.usd ?? r.costUsd;
    const wallMs = r.cost?.wallMs ?? r.timingMs;
    return {
      key: r.key,
      attempt: r.attempt ?? i + 1,
      state: r.state,
      ...(r.score !== undefined ? { score: r.score } : {}),
      ...(cause ? { cause } : {}),
      ...(cause && derived ? { derived: true } : {}),
      counted: includeErrors || !cause || !errorCauses.has(cause),
      ...(usd !== undefined ? { usd } : {}),
      ...(wallMs !== undefined ? { wallMs } : {}),
    };
  });
  const counted = attempts.filter((a) => a.counted);
  const n = counted.length;
  const k = counted.filter((a) => a.cause === 'success').length;
  const ks = Array.from({ length: n }, (_, i) => i + 1);
  const score = (a: AttemptStat) => (typeof a.score === 'number' && Number.isFinite(a.score) ? a.score : 0);
  return {
    task,
    domain: rows[0].domain,
    taskId: rows[0].taskId,
    n,
    k,
    passAt: ks.map((j) => passAtK(n, k, j)),
    passHat: ks.map((j) => passHatK(n, k, j)),
    meanScore: n ? counted.reduce((s, a) => s + score(a), 0) / n : 0,
    flaky: k > 0 && k < n,
    attempts,
  };
}

function rateOf(tasks: readonly TaskStat[], opts: StatsOptions): RateStat {
  const rated = tasks.filter((t) => t.n > 0);
  const shares = rated.map((t) => t.k / t.n);
  const rate = shares.length ? shares.reduce((a, b) => a + b, 0) / shares.length : 0;
  return {
    rate,
    ci: bootstrapMeanCi(shares, opts),
    tasks: rated.length,
    attempts: rated.reduce((s, t) => s + t.n, 0),
    successes: rated.reduce((s, t) => s + t.k, 0),
  };
}

function costOf(rows: readonly AttemptRow[], tasks: number, successes: number): CostStat {
  let usd = 0;
  let withUsd = 0;
  let wall = 0;
  let withTime = 0;
  let tin = 0;
  let tout = 0;
  let withTokens = 0;
  for (const r of rows) {
    const u = r.cost?.usd ?? r.costUsd;
    const w = r.cost?.wallMs ?? r.timingMs;
    if (typeof u === 'number' && Number.isFinite(u)) {
      usd += u;
      withUsd++;
    }
    if (typeof w === 'number' && Number.isFinite(w)) {
      wall += w;
      withTime++;
    }
    if (r.cost?.tokensIn !== undefined || r.cost?.tokensOut !== undefined) {
      tin += r.cost.tokensIn ?? 0;
      tout += r.cost.tokensOut ?? 0;
      withTokens++;
    }
  }
  const c: CostStat = { withUsd, withTime };
  if (withUsd) {
    c.totalUsd = usd;
    if (tasks) c.usdPerTask = usd / tasks;
    if (successes) c.usdPerSuccess = usd / successes;
  }
  if (withTime) {
    c.totalWallMs = wall;
    if (successes) c.wallMsPerSuccess = wall / successes;
  }
  if (withTokens) {
    c.tokensIn = tin;
    c.tokensOut = tout;
  }
  return c;
}

/**
 * A run's statistics. Money and time count every attempt (an env error costs too); cost per success divides by
 * the successful attempts. Where an attempt has no `cost`, the report's cost (`--prices`) and timing are used.
 */
export function runStats(rows: readonly AttemptRow[], opts: StatsOptions = {}): RunStats {
  const includeErrors = opts.includeErrors ?? false;
  const groups = groupAttempts(rows);
  const tasks: TaskStat[] = [];
  const firstRow = new Map<string, AttemptRow>();
  for (const [t, list] of groups) {
    tasks.push(taskStat(t, list, includeErrors));
    firstRow.set(t, list[0]);
  }
  const causes: RunStats['causes'] = {};
  const excluded: RunStats['excluded'] = [];
  let derivedCauses = 0;
  for (const t of tasks)
    for (const a of t.attempts) {
      const c = a.cause ?? 'unfinished';
      causes[c] = (causes[c] ?? 0) + 1;
      if (a.derived) derivedCauses++;
      if (a.cause && errorCauses.has(a.cause)) excluded.push({ key: a.key, cause: a.cause });
    }
  const overall = rateOf(tasks, opts);
  const by: Record<string, BucketRate[]> = {};
  for (const dim of opts.dims ?? []) {
    const buckets = new Map<string, TaskStat[]>();
    for (const t of tasks) {
      const b = dimensions[dim].bucketOf(firstRow.get(t.task)!);
      const list = buckets.get(b);
      if (list) list.push(t);
      else buckets.set(b, [t]);
    }
    by[dim] = [...buckets].map(([bucket, list]) => ({ bucket, ...rateOf(list, opts) }));
  }
  return {
    method: methodName(opts),
    includeErrors,
    overall,
    maxAttempts: tasks.reduce((m, t) => Math.max(m, t.attempts.length), 0),
    tasks,
    flaky: tasks.filter((t) => t.flaky).length,
    causes,
    derivedCauses,
    excluded: includeErrors ? [] : excluded,
    cost: costOf(rows, tasks.length, overall.successes),
    by,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Run versus run.

const pts = (d: number) => (d * 100).toFixed(1);
const signed = (d: number) => `${d > 0 ? '+' : d < 0 ? '−' : '±'}${pts(Math.abs(d))}`;
const minus = (d: number) => (d < 0 ? `−${pts(-d)}` : pts(d));

/** `1.2–7.0`, or `−2.1 to 4.0` when a bound is negative (a dash beside a minus misreads). */
export function intervalPoints(ci: Interval): string {
  return ci.low < 0 || ci.high < 0
    ? `${minus(ci.low)} to ${minus(ci.high)}`
    : `${pts(ci.low)}–${pts(ci.high)}`;
}

/**
 * Run B against run A on their common tasks (tasks with counted attempts in both): the difference of the rates
 * with a paired bootstrap interval, the exact McNemar test on the tasks' pass / fail (a task passes when more than
 * half its counted attempts did), the tasks that flipped each way, and one sentence. A difference is called
 * significant when its interval excludes 0.
 */
export function pairedComparison(
  a: { label: string; rows: readonly AttemptRow[] },
  b: { label: string; rows: readonly AttemptRow[] },
  opts: StatsOptions = {},
): PairedComparison {
  const sa = new Map(
    runStats(a.rows, { ...opts, dims: [] })
      .tasks.filter((t) => t.n > 0)
      .map((t) => [t.task, t]),
  );
  const sb = new Map(
    runStats(b.rows, { ...opts, dims: [] })
      .tasks.filter((t) => t.n > 0)
      .map((t) => [t.task, t]),
  );
  const common = [...sa.keys()].filter((t) => sb.has(t));
  const diffs = new Float64Array(common.length);
  let sumA = 0;
  let sumB = 0;
  let aOnly = 0;
  let bOnly = 0;
  const toA: PairedComparison['toA'] = [];
  const toB: PairedComparison['toB'] = [];
  common.forEach((t, i) => {
    const ta = sa.get(t)!;
    const tb = sb.get(t)!;
    const ra = ta.k / ta.n;
    const rb = tb.k / tb.n;
    sumA += ra;
    sumB += rb;
    diffs[i] = rb - ra;
    const pa = ra > 0.5;
    const pb = rb > 0.5;
    if (pa && !pb) {
      aOnly++;
      toA.push({ task: t, a: ra, b: rb });
    }
    if (pb && !pa) {
      bOnly++;
      toB.push({ task: t, a: ra, b: rb });
    }
  });
  const n = common.length;
  const rateA = n ? sumA / n : 0;
  const rateB = n ? sumB / n : 0;
  const diff = rateB - rateA;
  const ci = bootstrapMeanCi(diffs, opts);
  const p = mcnemarExact(aOnly, bOnly);
  const significant = n > 0 && (ci.low > 0 || ci.high < 0);
  const level = Math.round(ci.level * 100);
  const mc = `exact McNemar p = ${p < 0.001 ? p.toExponential(1) : p.toFixed(3)} on ${aOnly + bOnly} discordant tasks`;
  const sentence = !n
    ? `no common tasks: ${a.label} and ${b.label} cannot be compared`
    : significant
      ? `${diff > 0 ? b.label : a.label} is better by ${pts(Math.abs(diff))} points, ${level} % CI ${intervalPoints(diff > 0 ? ci : { low: -ci.high, high: -ci.low, level: ci.level })} (${mc})`
      : `no significant difference: ${b.label} − ${a.label} = ${signed(diff)} points, ${level} % CI ${intervalPoints(ci)} (${mc})`;
  return {
    a: a.label,
    b: b.label,
    common: n,
    onlyA: [...sa.keys()].filter((t) => !sb.has(t)).length,
    onlyB: [...sb.keys()].filter((t) => !sa.has(t)).length,
    rateA,
    rateB,
    diff,
    ci,
    method: methodName(opts, true),
    mcnemar: { aOnly, bOnly, p },
    toB,
    toA,
    significant,
    sentence,
  };
}
