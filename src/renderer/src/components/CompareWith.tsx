// "Side by side with…": from one run's replay, pick another run below the served folder that has the same task,
// to see it (at the same step) next to this one.
import { compareLink } from '../../../shared/links';
import { useCall } from '../data/use-call';

export function CompareWith({ runId, taskKey, step }: { runId: string; taskKey: string; step?: number }) {
  const { data: runs } = useCall('runs.list', { withTask: taskKey });
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
