// The paper's breakdowns of a run, as bars: success rate by category, app, difficulty, interface, style and
// account, over every task of each bucket (skipped and errored tasks count, and are shown).
import { useMemo } from 'react';
import type { RunTaskItem } from '../../../shared/run';
import { breakdown, dimensions, dimensionNames, rowFromItem } from '../../../shared/breakdown';
import { formatPercent } from '../../../shared/format';
import type { GradedBy } from '../../../shared/grading';

export function BreakdownPanel({ tasks, gradedBy }: { tasks: RunTaskItem[]; gradedBy?: GradedBy }) {
  const report = useMemo(() => breakdown(tasks.map((t) => rowFromItem(t, gradedBy))), [tasks, gradedBy]);
  return (
    <details className="breakdown" data-testid="breakdown">
      <summary>Breakdown</summary>
      <div className="breakdown-grid">
        {dimensionNames.map((dim) => {
          const buckets = report.by[dim] ?? [];
          if (buckets.length < 2 && buckets[0]?.bucket === 'unknown') return null;
          return (
            <div key={dim} className="breakdown-dim">
              <h4>{dimensions[dim].title}</h4>
              {buckets.map((b) => (
                <div
                  key={b.bucket}
                  className="bar-row"
                  title={`${b.passed} passed · ${b.failed} failed · ${b.errored} errored · ${b.skipped} skipped · ${b.unfinished} unfinished`}
                >
                  <span className="bar-label">{b.bucket}</span>
                  <span className="bar-track">
                    <span className="bar-fill" style={{ width: formatPercent(b.rate) }} />
                  </span>
                  <span className="bar-value">
                    {formatPercent(b.rate)} <span className="muted">of {b.tasks}</span>
                  </span>
                </div>
              ))}
            </div>
          );
        })}
      </div>
    </details>
  );
}
