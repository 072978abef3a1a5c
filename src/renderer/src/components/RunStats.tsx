// Statistics over attempts in the UI (runs.stats, runs.pairedStats): the success rate with its interval in the run
// list and the run table, causes, cost, flaky tasks and breakdowns with intervals; a task's attempts (k of n, flaky
// mark, each attempt's cause) in the replay; and two runs paired in the compare view.
import { useState } from 'react';
import type { AttemptCause } from '../../../shared/run';
import {
  causeNames,
  rateWithCi,
  type Interval,
  type RunStats,
  type TaskStat,
} from '../../../shared/run-stats';
import { formatCost, formatDuration, formatScore } from '../../../shared/format';
import { replayLink } from '../../../shared/links';
import { useCall } from '../data/use-call';

const pct = (x: number) => (x * 100).toFixed(1);
const whole = (x: number) => String(Math.round(x * 100));

/** `62.5 % [48–76]` (compact) or `62.5 % [48.1–76.0]`. */
export const intervalText = (rate: number, ci: Interval, compact = false): string =>
  rateWithCi(rate, ci, compact);

export const causeLabels = causeNames;

const causeKind = (c: AttemptCause | 'unfinished') =>
  c === 'success'
    ? 'easy'
    : c === 'env_error' || c === 'grading_error'
      ? 'warning'
      : c === 'unfinished'
        ? 'tag'
        : 'hard';

// One request per run and setting, shared by every component showing it (the run table and the replay ask alike);
// the store asks at most two at a time, so a list of hundreds of runs does not read them all at once on the engine.
function useRunStats(
  runId: string,
  includeErrors = false,
  version = 0,
): { stats?: RunStats; error?: string } {
  const { data: stats, error } = useCall('runs.stats', { runId, includeErrors }, version);
  return { stats, error };
}

/**
 * The run list's cell: the interval of the rate (nothing when the caller may not see statistics); the rate too
 * when it differs from the list's (env and grading errors left out).
 */
export function RunInterval({
  runId,
  rate,
  version = 0,
}: {
  runId: string;
  rate?: number;
  version?: number;
}) {
  const { stats } = useRunStats(runId, false, version);
  if (!stats || !stats.overall.tasks) return null;
  const o = stats.overall;
  const same = rate !== undefined && Math.abs(rate - o.rate) < 0.0005;
  return (
    <span
      className="muted small"
      data-testid="run-list-interval"
      title={`${stats.method}; env and grading errors left out (${stats.excluded.length})`}
    >
      {same
        ? ` [${whole(o.ci.low)}–${whole(o.ci.high)}]`
        : ` · ${intervalText(o.rate, o.ci, true)} without env/grading errors`}
    </span>
  );
}

function CauseBadges({ causes }: { causes: RunStats['causes'] }) {
  return (
    <span className="badges" data-testid="run-causes">
      {(Object.keys(causeLabels) as (AttemptCause | 'unfinished')[])
        .filter((c) => causes[c])
        .map((c) => (
          <span key={c} className={`badge badge-${causeKind(c)}`}>
            {causeLabels[c]} {causes[c]}
          </span>
        ))}
    </span>
  );
}

const kn = (t: TaskStat) => `${t.k}/${t.n}`;

/** The run table's panel: interval and method, causes, cost, flaky tasks, left-out attempts, breakdowns with intervals. */
export function RunStatsPanel({ runId, version = 0 }: { runId: string; version?: number }) {
  const [includeErrors, setIncludeErrors] = useState(false);
  const { stats, error } = useRunStats(runId, includeErrors, version);
  if (error) return null;
  if (!stats) return <div className="muted small pad">Computing statistics…</div>;
  const o = stats.overall;
  const c = stats.cost;
  const flaky = stats.tasks.filter((t) => t.flaky);
  return (
    <details className="breakdown" data-testid="run-stats" open>
      <summary>
        Success <b data-testid="run-interval">{intervalText(o.rate, o.ci)}</b>{' '}
        <span className="muted small">
          {o.successes} of {o.attempts} attempts over {o.tasks} tasks · {stats.flaky} flaky
        </span>
      </summary>
      <div className="small" style={{ padding: '4px 8px', display: 'grid', gap: 4 }}>
        <div className="muted" data-testid="run-stats-method">
          {stats.method}; a task's rate is its share of successful attempts.
        </div>
        <label>
          <input
            type="checkbox"
            checked={includeErrors}
            onChange={(e) => setIncludeErrors(e.target.checked)}
            data-testid="include-errors"
          />{' '}
          count env and grading errors as failures{' '}
          {includeErrors ? '' : `(left out now: ${stats.excluded.length})`}
        </label>
        {stats.excluded.length > 0 && (
          <div data-testid="rerun-command">
            re-run them: <code>npx proctor run --resume --retry-env-errors &lt;run folder&gt;</code>{' '}
            <span className="muted">
              (
              {stats.excluded
                .slice(0, 5)
                .map((e) => e.key)
                .join(', ')}
              {stats.excluded.length > 5 ? ', …' : ''})
            </span>
          </div>
        )}
        <div>
          causes <CauseBadges causes={stats.causes} />
          {stats.derivedCauses > 0 && (
            <span className="muted"> ({stats.derivedCauses} derived from state and score)</span>
          )}
        </div>
        <div data-testid="run-cost">
          {c.usdPerTask !== undefined
            ? `cost per task ${formatCost(c.usdPerTask)} · per success ${formatCost(c.usdPerSuccess)}`
            : 'cost not recorded'}
          {c.wallMsPerSuccess !== undefined && ` · time per success ${formatDuration(c.wallMsPerSuccess)}`}
        </div>
        {flaky.length > 0 && (
          <div>
            flaky (attempts disagree):{' '}
            {flaky.slice(0, 30).map((t) => (
              <a
                key={t.task}
                href={replayLink(runId, t.attempts[0].key)}
                className="mono"
                style={{ marginRight: 8 }}
                data-testid="flaky-task"
              >
                {t.task} {kn(t)} ~
              </a>
            ))}
            {flaky.length > 30 && <span className="muted">… {flaky.length - 30} more</span>}
          </div>
        )}
        <div className="breakdown-grid">
          {Object.entries(stats.by).map(([dim, buckets]) =>
            buckets.length < 2 && buckets[0]?.bucket === 'unknown' ? null : (
              <div key={dim} className="breakdown-dim" data-testid={`stats-by-${dim}`}>
                <h4>{dim}, 95 % CI</h4>
                {buckets.map((b) => (
                  <div key={b.bucket} className="bar-row">
                    <span className="bar-label">{b.bucket}</span>
                    <span className="bar-value">
                      {intervalText(b.rate, b.ci, true)} <span className="muted">of {b.tasks}</span>
                    </span>
                  </div>
                ))}
              </div>
            ),
          )}
        </div>
      </div>
    </details>
  );
}

/** The replay's panel: this task's attempts — k of n, flaky mark, pass@k — and each attempt's cause. */
export function AttemptsPanel({ runId, taskKey }: { runId: string; taskKey: string }) {
  const { stats } = useRunStats(runId);
  const task = stats?.tasks.find((t) => t.attempts.some((a) => a.key === taskKey));
  if (!task) return null;
  const many = task.attempts.length > 1;
  return (
    <div
      className="small"
      style={{ display: 'flex', gap: 8, flexWrap: 'wrap', alignItems: 'center', padding: '2px 8px' }}
      data-testid="attempts-panel"
    >
      <span data-testid="attempt-kn" title="successful of counted attempts (env and grading errors left out)">
        {many ? `attempts ${kn(task)} succeeded` : `k/n ${kn(task)}`}
      </span>
      {task.flaky && (
        <span
          className="badge badge-medium"
          data-testid="flaky-mark"
          title="the attempts of this task disagree"
        >
          ~ flaky
        </span>
      )}
      {many && task.n > 0 && (
        <span className="muted">
          pass@k {task.passAt.map((x) => formatScore(x)).join(' ')} · pass^k{' '}
          {task.passHat.map((x) => formatScore(x)).join(' ')}
        </span>
      )}
      {task.attempts.map((a) => {
        const cause = a.cause ?? 'unfinished';
        const label = `${many ? `#${a.attempt} ` : ''}${causeLabels[cause]}${a.counted ? '' : ' (left out)'}`;
        return a.key === taskKey || !many ? (
          <span
            key={a.key}
            className={`badge badge-${causeKind(cause)}`}
            data-testid="attempt-cause"
            title={a.derived ? 'derived from state and score' : undefined}
          >
            {label}
          </span>
        ) : (
          <a
            key={a.key}
            href={replayLink(runId, a.key)}
            className={`badge badge-${causeKind(cause)}`}
            data-testid="attempt-cause"
          >
            {label}
          </a>
        );
      })}
    </div>
  );
}

/** The compare view's line: the second run against the first, paired over their common tasks. */
export function PairedPanel({ runs }: { runs: string[] }) {
  const { data: p } = useCall('runs.pairedStats', { runIds: runs.slice(0, 2) });
  if (!p) return null;
  return (
    <div className="small pad" data-testid="paired-result" title={p.method}>
      <b data-testid="paired-sentence">{p.sentence}</b>
      <div className="muted">
        over {p.common} common tasks: {p.a} {pct(p.rateA)} %, {p.b} {pct(p.rateB)} %; flipped{' '}
        {p.mcnemar.bOnly} to {p.b}, {p.mcnemar.aOnly} to {p.a}
        {p.onlyA + p.onlyB > 0 && ` · left out: ${p.onlyA} only in ${p.a}, ${p.onlyB} only in ${p.b}`}
      </div>
    </div>
  );
}
