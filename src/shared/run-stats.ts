// Statistics of runs with repeated attempts, as the report and the UI show them: per task k of n, pass@k, pass^k
// and a flaky mark; per run the success rate with a bootstrap confidence interval, causes and costs; and the
// paired comparison of two runs. Types (computed in src/main/report/stats.ts) and the words both the terminal and the UI
// use for them.
import type { AttemptCause, TaskState } from './run';

/** A 95 % (or other) interval of a rate or a difference, with how it was made. */
export interface Interval {
  low: number;
  high: number;
  /** 0.95 */
  level: number;
}

/** One attempt of a task as the statistics see it. */
export interface AttemptStat {
  key: string;
  attempt: number;
  state: TaskState;
  score?: number;
  /** The attempt's cause: the run's own, or derived from state and score (`derived: true`). */
  cause?: AttemptCause;
  derived?: boolean;
  /** Counted in the rates (env and grading errors are not, unless included; unfinished attempts count as fails). */
  counted: boolean;
  usd?: number;
  wallMs?: number;
}

export interface TaskStat {
  /** `<domain>/<task id>`: attempts of one task share it. */
  task: string;
  domain: string;
  taskId: string;
  /** Counted attempts. */
  n: number;
  /** Counted attempts that succeeded. */
  k: number;
  /** pass@k for k = 1..n (index 0 = pass@1): at least one of k attempts drawn without replacement succeeds. */
  passAt: number[];
  /** pass^k for k = 1..n: all of k attempts drawn without replacement succeed. */
  passHat: number[];
  /** Mean score over counted attempts (no score = 0). */
  meanScore: number;
  /** Counted attempts disagree: some succeeded, some did not. */
  flaky: boolean;
  attempts: AttemptStat[];
}

export interface RateStat {
  /** Mean over tasks (with at least one counted attempt) of each task's share of successful attempts. */
  rate: number;
  ci: Interval;
  /** Tasks in the rate. */
  tasks: number;
  attempts: number;
  successes: number;
}

export interface BucketRate extends RateStat {
  bucket: string;
}

export interface CostStat {
  /** Attempts with a known cost (money, time). */
  withUsd: number;
  withTime: number;
  totalUsd?: number;
  /** Total USD / tasks of the run. */
  usdPerTask?: number;
  /** Total USD / successful attempts. */
  usdPerSuccess?: number;
  totalWallMs?: number;
  wallMsPerSuccess?: number;
  tokensIn?: number;
  tokensOut?: number;
}

export interface RunStats {
  /** How the interval was made, e.g. `percentile bootstrap over tasks (attempts kept together), 2000 resamples, seed 24`. */
  method: string;
  /** Whether env and grading errors are counted (as failures) in the rates. */
  includeErrors: boolean;
  overall: RateStat;
  /** Most attempts any task has. */
  maxAttempts: number;
  tasks: TaskStat[];
  flaky: number;
  /** Attempts per cause (`unfinished` for attempts with none). */
  causes: Partial<Record<AttemptCause | 'unfinished', number>>;
  /** Causes derived from state and score because the run did not record them. */
  derivedCauses: number;
  /** Attempts left out of the rates (env and grading errors), to re-run. */
  excluded: { key: string; cause: AttemptCause }[];
  cost: CostStat;
  /** Per dimension (category, app, difficulty, …): each bucket's rate with its interval. */
  by: Record<string, BucketRate[]>;
}

export interface FlippedTaskStat {
  task: string;
  /** Share of successful attempts in run A and in run B. */
  a: number;
  b: number;
}

/** Run B against run A on the tasks both have. */
export interface PairedComparison {
  a: string;
  b: string;
  /** Tasks with counted attempts in both runs. */
  common: number;
  onlyA: number;
  onlyB: number;
  rateA: number;
  rateB: number;
  /** rateB − rateA over the common tasks. */
  diff: number;
  ci: Interval;
  method: string;
  /** Exact McNemar test on the tasks' pass/fail (a task passes when more than half its counted attempts did). */
  mcnemar: { aOnly: number; bOnly: number; p: number };
  /** Passed in B, failed in A; passed in A, failed in B. */
  toB: FlippedTaskStat[];
  toA: FlippedTaskStat[];
  significant: boolean;
  sentence: string;
}

/** What each attempt cause is called, in the terminal and the UI alike. */
export const causeNames: Readonly<Record<AttemptCause | 'unfinished', string>> = {
  success: 'success',
  agent_failure: 'agent failure',
  step_limit: 'step limit',
  agent_error: 'agent error',
  env_error: 'env error',
  grading_error: 'grading error',
  unfinished: 'unfinished',
};

const percent = (x: number) => (x * 100).toFixed(1);
const wholePercent = (x: number) => String(Math.round(x * 100));

/** `62.5 % [48.1–76.0]`, or with `compact` `62.5 % [48–76]`: a rate and its interval, in percent. */
export function rateWithCi(rate: number, ci: Interval, compact = false): string {
  const bound = compact ? wholePercent : percent;
  return `${percent(rate)} % [${bound(ci.low)}–${bound(ci.high)}]`;
}
