// The queue of a run enqueued for workers (`proctor run --queue`): progress, jobs by state, retries, workers,
// the tasks running now with their step, rate and ETA — read again every few seconds while the run is open.
import { formatDuration } from '../../../shared/format';
import { useCall, usePoll } from '../data/use-call';

const POLL_MS = 3000;

export function QueuePanel({ runId }: { runId: string }) {
  const { data: view, error } = useCall('runs.queue', { runId }, usePoll(POLL_MS));
  if (view === null || (view === undefined && !error)) return null;
  if (error || !view?.status) {
    return (
      <div className="queue-panel" data-testid="queue-panel">
        <b>queue</b> <span className="mono">{view?.queue}</span>{' '}
        <span className="error">{error ?? view?.error}</span>
      </div>
    );
  }
  const s = view.status;
  const finished = s.done + s.failed;
  const share = s.total ? finished / s.total : 0;
  return (
    <div className="queue-panel" data-testid="queue-panel">
      <div>
        <b>queue</b> <span className="mono muted">{view.queue}</span>
      </div>
      <div className="queue-bar" title={`${finished} of ${s.total} jobs finished`}>
        <div className="queue-bar-done" style={{ width: `${Math.round(share * 100)}%` }} />
      </div>
      <div className="small" data-testid="queue-counts">
        {finished} of {s.total} finished · waiting {s.waiting} · active {s.active} · done {s.done} · failed{' '}
        {s.failed} · retried {s.retried}
        {s.perMinute !== undefined && ` · ${s.perMinute.toFixed(1)} tasks/min`}
        {s.etaMs !== undefined && ` · ETA ${formatDuration(s.etaMs)}`}
      </div>
      {s.perWorker.length > 0 && (
        <div className="small muted">
          workers: {s.perWorker.map((w) => `${w.name} (${w.active} running, ${w.done} done)`).join(' · ')}
        </div>
      )}
      {s.running.length > 0 && (
        <div className="small muted">
          running:{' '}
          {s.running
            .map(
              (r) =>
                `${r.taskKey}${r.step !== undefined ? ` step ${r.step}` : ''}${r.attempt > 1 ? ` (attempt ${r.attempt})` : ''}`,
            )
            .join(' · ')}
        </div>
      )}
      {s.failures.length > 0 && (
        <div className="small error">
          failed: {s.failures.map((f) => `${f.taskKey}: ${f.reason}`).join(' · ')}
        </div>
      )}
    </div>
  );
}
