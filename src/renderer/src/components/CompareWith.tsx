// "Side by side with…": from one run's replay, pick another run below the served folder that has the same task,
// to see it (at the same step) next to this one.
import { useEffect, useState } from 'react';
import type { RunListItem } from '../../../shared/run';
import { compareLink } from '../../../shared/links';
import { client } from '../transport';

export function CompareWith({ runId, taskKey, step }: { runId: string; taskKey: string; step?: number }) {
  const [runs, setRuns] = useState<RunListItem[]>();
  useEffect(() => {
    client.call('runs.list', { withTask: taskKey }).then(setRuns, () => setRuns([]));
  }, [taskKey]);
  const others = (runs ?? []).filter((r) => r.path !== runId && r.runId !== runId);
  if (!others.length) return null;
  return (
    <select
      aria-label="side by side with another run"
      value=""
      onChange={(e) => {
        if (e.target.value) location.hash = compareLink([runId, e.target.value], taskKey, step).slice(1);
      }}
      data-testid="compare-with"
    >
      <option value="">side by side with…</option>
      {others.map((r) => (
        <option key={r.path} value={r.path}>
          {r.path}
          {r.agent || r.model ? ` (${[r.agent, r.model].filter(Boolean).join(' / ')})` : ''}
        </option>
      ))}
    </select>
  );
}
