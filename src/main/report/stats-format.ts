// Text of the statistics for the terminal: the rate with its interval and method, what was left out and how to
// re-run it, causes, costs, per-task k of n with pass@k / pass^k and flaky marks, breakdowns with intervals, and
// the paired comparison. Pure: numbers in, lines out.
import type { AttemptCause } from '../../shared/run';
import {
  causeNames,
  rateWithCi,
  type PairedComparison,
  type RateStat,
  type RunStats,
  type TaskStat,
} from '../../shared/run-stats';
import { formatCost, formatDuration, formatScore } from '../../shared/format';
import { dimensions, isDimensionName } from '../../shared/breakdown';
import { formatTable } from '../text/table';

const pct = (x: number) => (x * 100).toFixed(1);

export { causeNames, rateWithCi };

const causeOrder = Object.keys(causeNames) as (AttemptCause | 'unfinished')[];

/** `success 3, agent failure 2, env error 1` */
export function causesLine(causes: RunStats['causes']): string {
  return (
    causeOrder
      .filter((c) => causes[c])
      .map((c) => `${causeNames[c]} ${causes[c]}`)
      .join(', ') || 'none'
  );
}

function rateLine(r: RateStat): string {
  return `${rateWithCi(r.rate, r.ci)}  (${r.successes} of ${r.attempts} attempts succeeded over ${r.tasks} tasks)`;
}

/** The shell command that re-runs a run's env and grading errors (the runner's flag). */
export const retryCommand = (runDir: string) => `npx proctor run --resume --retry-env-errors ${runDir}`;

/** formatScore, remembered: a run's pass@k values repeat (they depend on n, k and j alone). */
function scoreText(cache: Map<number, string>, x: number): string {
  let s = cache.get(x);
  if (s === undefined) cache.set(x, (s = formatScore(x)));
  return s;
}

function taskRow(t: TaskStat, cache: Map<number, string>): string[] {
  const causes = t.attempts.map(
    (a) => (a.cause ? causeNames[a.cause] : 'unfinished') + (a.counted ? '' : '*'),
  );
  return [
    t.task + (t.flaky ? '  ~flaky' : ''),
    `${t.k}/${t.n}`,
    t.passAt.map((x) => scoreText(cache, x)).join(' ') || '–',
    t.passHat.map((x) => scoreText(cache, x)).join(' ') || '–',
    scoreText(cache, t.meanScore),
    causes.join(', '),
  ];
}

/** One run's statistics; `runDir` names the run in the re-run command. */
export function formatRunStats(s: RunStats, runDir: string): string[] {
  const lines = [
    `Success rate with ${Math.round(s.overall.ci.level * 100)} % CI: ${rateLine(s.overall)}`,
    `  ${s.method}; a task's rate is its share of successful attempts`,
  ];
  if (s.includeErrors) lines.push('  Env and grading errors are counted as failures (--include-errors).');
  else {
    lines.push(
      s.excluded.length
        ? `  Left out of the rates: ${s.excluded.length} attempt(s) ended by an env or grading error (--include-errors counts them as failures). To re-run them:`
        : '  Env and grading errors are left out of the rates (there are none; --include-errors would count them as failures).',
    );
    if (s.excluded.length) {
      lines.push(`    ${retryCommand(runDir)}`);
      for (const e of s.excluded.slice(0, 20)) lines.push(`    ${e.key}  (${causeNames[e.cause]})`);
      if (s.excluded.length > 20)
        lines.push(`    … and ${s.excluded.length - 20} more (all in --json / --csv)`);
    }
  }
  const all = Object.values(s.causes).reduce((a, b) => a + (b ?? 0), 0);
  lines.push(
    `Causes: ${causesLine(s.causes)}${s.derivedCauses ? ` (${s.derivedCauses === all ? 'all' : s.derivedCauses} derived from state and score: the run recorded none)` : ''}`,
  );
  const c = s.cost;
  const bits = [
    c.usdPerTask !== undefined && `cost per task ${formatCost(c.usdPerTask)}`,
    c.usdPerSuccess !== undefined && `per success ${formatCost(c.usdPerSuccess)}`,
    c.totalUsd !== undefined && `total ${formatCost(c.totalUsd)} over ${c.withUsd} attempts`,
    c.wallMsPerSuccess !== undefined && `time per success ${formatDuration(c.wallMsPerSuccess)}`,
    c.tokensIn !== undefined && `tokens in ${c.tokensIn}, out ${c.tokensOut}`,
  ].filter(Boolean);
  lines.push(
    bits.length
      ? `Cost: ${bits.join('; ')}`
      : 'Cost: not recorded (no cost per attempt; --prices computes it from tokens)',
  );
  if (s.maxAttempts > 1) {
    const cache = new Map<number, string>();
    lines.push(
      '',
      `Per task: ${s.flaky} of ${s.tasks.length} flaky (attempts disagree); k/n = successful of counted attempts; pass@k and pass^k for k = 1..n; * = left out`,
      formatTable(
        ['task', 'k/n', 'pass@k', 'pass^k', 'mean score', 'causes by attempt'],
        s.tasks.map((t) => taskRow(t, cache)),
      ),
    );
  }
  for (const [dim, buckets] of Object.entries(s.by)) {
    const title = isDimensionName(dim) ? dimensions[dim].title : dim;
    lines.push(
      '',
      `${title}, with ${Math.round(s.overall.ci.level * 100)} % CI`,
      formatTable(
        [dim, 'rate [CI]', 'tasks', 'attempts'],
        buckets.map((b) => [b.bucket, rateWithCi(b.rate, b.ci), String(b.tasks), String(b.attempts)]),
      ),
    );
  }
  return lines;
}

/** Run B against run A, paired over their common tasks. */
export function formatPaired(p: PairedComparison): string[] {
  const lines = [
    `Paired comparison, ${p.b} against ${p.a}, over ${p.common} common tasks${p.onlyA || p.onlyB ? ` (left out: ${p.onlyA} only in ${p.a}, ${p.onlyB} only in ${p.b})` : ''}:`,
    `  ${p.sentence}`,
    `  ${p.a} ${pct(p.rateA)} %, ${p.b} ${pct(p.rateB)} %; ${p.method}`,
    `  Flipped: ${p.mcnemar.bOnly} pass in ${p.b} only, ${p.mcnemar.aOnly} pass in ${p.a} only (a task passes when more than half its counted attempts did)`,
  ];
  for (const t of p.toB) lines.push(`    + ${t.task}  (${pct(t.a)} % → ${pct(t.b)} %)`);
  for (const t of p.toA) lines.push(`    - ${t.task}  (${pct(t.a)} % → ${pct(t.b)} %)`);
  return lines;
}
