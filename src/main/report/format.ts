// Text of a report for the terminal: one table per breakdown, a small bar per rate, and run-versus-run tables.
// Pure (no Node): strings in, strings out.
import {
  dimensions,
  type BucketComparison,
  type BucketStats,
  type Breakdown,
  type Comparison,
  type DimensionName,
  type FlippedTask,
  type Measure,
} from '../../shared/breakdown';
import { formatTable } from '../text/table';
import { formatCost, formatDuration, formatPercent, formatScore, formatTokens } from '../../shared/format';
import { flippedTaskLink, type CompareLinks } from './links';

/** `42.9%` */
export const percent = (rate: number): string => formatPercent(rate);

/** A bar of `width` cells, filled in proportion to `rate` (0…1), e.g. `█████░░░░░`. */
export function rateBar(rate: number, width = 20): string {
  const r = Number.isFinite(rate) ? Math.min(1, Math.max(0, rate)) : 0;
  const full = Math.round(r * width);
  return '█'.repeat(full) + '░'.repeat(width - full);
}

/** `+19.6 pt`, `-3.0 pt`, `±0.0 pt` */
export function pointDiff(diff: number | undefined): string {
  if (diff === undefined) return '—';
  const pt = diff * 100;
  if (Math.abs(pt) < 0.05) return '±0.0 pt';
  return `${pt > 0 ? '+' : ''}${pt.toFixed(1)} pt`;
}

export const duration = (ms: number): string => formatDuration(ms);
const tokenCount = formatTokens;
const usd = formatCost;

/** Mean per task that ran; `*` when only some tasks of the bucket are in it. */
function perTask(m: Measure | undefined, tasks: number, show: (n: number) => string): string {
  if (!m) return '—';
  return show(m.mean) + (m.tasks < tasks ? '*' : '');
}

/** `3 of 8 passed; 2 failed, 1 errored, 1 skipped, 1 unfinished` */
export function countsLine(s: BucketStats): string {
  const rest = [
    s.failed && `${s.failed} failed`,
    s.errored && `${s.errored} errored`,
    s.skipped && `${s.skipped} skipped`,
    s.unfinished && `${s.unfinished} unfinished`,
  ].filter(Boolean);
  return `${s.passed} of ${s.tasks} passed${rest.length ? `; ${rest.join(', ')}` : ''}`;
}

const header = [
  '',
  'tasks',
  'passed',
  'rate',
  '',
  'failed',
  'errored',
  'skipped',
  'unfinished',
  'tokens/task',
  'time/task',
  'cost/task',
];

function statsRow(s: BucketStats): string[] {
  return [
    s.bucket,
    String(s.tasks),
    String(s.passed),
    percent(s.rate),
    rateBar(s.rate),
    String(s.failed),
    String(s.errored),
    String(s.skipped),
    String(s.unfinished),
    perTask(s.tokens, s.tasks, tokenCount),
    perTask(s.timeMs, s.tasks, duration),
    perTask(s.costUsd, s.tasks, usd),
  ];
}

function needsFootnote(stats: BucketStats[]): boolean {
  return stats.some((s) => [s.tokens, s.timeMs, s.costUsd].some((m) => m && m.tasks < s.tasks));
}

const footnotes = [
  'rate = sum of scores / every task of the set (errored, skipped and unfinished tasks count as 0).',
  '* mean over the tasks that ran (not skipped or unfinished) and recorded it.',
];

/** One run's report: the overall line (and `besideRate`, e.g. the safety figures, right below it), then a table per dimension. */
export function formatBreakdown(
  title: string,
  report: Breakdown,
  besideRate: readonly string[] = [],
): string[] {
  const o = report.overall;
  const lines = [
    title,
    `Success rate ${percent(o.rate)} ${rateBar(o.rate)}  (${countsLine(o)})`,
    ...besideRate,
  ];
  const perTaskBits = [
    o.tokens &&
      `tokens/task ${tokenCount(o.tokens.mean)}${o.tokens.tasks < o.tasks ? ` (over ${o.tokens.tasks} tasks that ran)` : ''}`,
    o.timeMs && `time/task ${duration(o.timeMs.mean)}`,
    o.costUsd && `cost/task ${usd(o.costUsd.mean)} (total ${usd(o.costUsd.total)})`,
  ].filter(Boolean);
  if (perTaskBits.length) lines.push(perTaskBits.join('; '));
  if (o.brittle !== undefined)
    lines.push(
      `Brittle evaluator flags: ${o.brittle} of ${o.tasks} tasks (faithful and robust verdicts disagree)`,
    );
  let starred = needsFootnote([o]);
  for (const [dim, stats] of Object.entries(report.by) as [DimensionName, BucketStats[]][]) {
    lines.push(
      '',
      dimensions[dim].title,
      formatTable(
        header.map((h, i) => (i === 0 ? dim : h)),
        stats.map(statsRow),
      ),
    );
    starred ||= needsFootnote(stats);
  }
  lines.push('', footnotes[0]);
  if (starred) lines.push(footnotes[1]);
  return lines;
}

function comparisonCell(s: BucketStats | undefined): string {
  return s ? `${percent(s.rate)} ${rateBar(s.rate, 10)} ${s.passed}/${s.tasks}` : '—';
}

function comparisonTable(first: string, runs: string[], rows: BucketComparison[]): string {
  const head = [first, runs[0]];
  for (const r of runs.slice(1)) head.push(r, 'Δ');
  return formatTable(
    head,
    rows.map((c) => {
      const cells = [c.bucket, comparisonCell(c.runs[0])];
      for (let i = 1; i < runs.length; i++) cells.push(comparisonCell(c.runs[i]), pointDiff(c.diff[i]));
      return cells;
    }),
  );
}

const side = (s: FlippedTask['baseline']) =>
  `${s.state}${s.score !== undefined ? ` ${formatScore(s.score)}` : ''}`;

/** Runs side by side per bucket (each with its difference to the first run), then the tasks that flipped. */
export function formatComparison(
  comparison: Comparison,
  titles: string[] = comparison.runs,
  links?: CompareLinks,
): string[] {
  const runs = titles.map((r, i) => `run ${i + 1}: ${r}`);
  const short = comparison.runs.map((_, i) => `run ${i + 1}`);
  const lines = [
    'Runs compared (Δ = rate minus run 1, in percentage points):',
    ...runs.map((r) => `  ${r}`),
    '',
  ];
  lines.push(comparisonTable('', short, [comparison.overall]));
  const measures: [string, (s: BucketStats) => Measure | undefined, (n: number) => string][] = [
    ['tokens/task', (s) => s.tokens, tokenCount],
    ['time/task', (s) => s.timeMs, duration],
    ['cost/task', (s) => s.costUsd, usd],
  ];
  const shown = measures.filter(([, get]) => comparison.overall.runs.some((s) => s && get(s)));
  if (shown.length)
    lines.push(
      '',
      formatTable(
        ['per task that ran', ...short],
        shown.map(([name, get, show]) => [
          name,
          ...comparison.overall.runs.map((s) => {
            const m = s && get(s);
            return m ? `${show(m.mean)} (${m.tasks})` : '—';
          }),
        ]),
      ),
    );
  for (const [dim, rows] of Object.entries(comparison.by) as [DimensionName, BucketComparison[]][])
    lines.push('', dimensions[dim].title, comparisonTable(dim, short, rows));
  const anyFlip = comparison.flips.some((f) => f.gained.length + f.lost.length > 0);
  if (links && anyFlip)
    lines.push(
      '',
      `A flipped task's runs side by side: npx proctor serve ${links.serveRoot}, then open the address it prints followed by the task's link.`,
    );
  for (const [i, f] of comparison.flips.entries()) {
    lines.push(
      '',
      `Tasks that flipped, run 1 → run ${i + 2}: ${f.gained.length} fail → pass, ${f.lost.length} pass → fail`,
    );
    const link = (key: string) => (links ? `  ${flippedTaskLink(links, i + 1, key)}` : '');
    for (const t of f.gained)
      lines.push(`  + ${t.key}  (${side(t.baseline)} → ${side(t.other)})${link(t.key)}`);
    for (const t of f.lost)
      lines.push(`  - ${t.key}  (${side(t.baseline)} → ${side(t.other)})${link(t.key)}`);
    if (f.onlyInBaseline.length || f.onlyInOther.length)
      lines.push(
        `  Not in both runs (their rates do not share a denominator): ` +
          [
            f.onlyInBaseline.length && `${f.onlyInBaseline.length} only in run 1`,
            f.onlyInOther.length && `${f.onlyInOther.length} only in run ${i + 2}`,
          ]
            .filter(Boolean)
            .join(', '),
      );
    for (const k of f.onlyInBaseline) lines.push(`    only in run 1: ${k}`);
    for (const k of f.onlyInOther) lines.push(`    only in run ${i + 2}: ${k}`);
  }
  lines.push('', footnotes[0]);
  return lines;
}
