// A person's run of a task as a demonstration: a lead accepts or rejects it with a reason (an appended event;
// the latest decides); an accepted one is the task's oracle for `proctor run --agent demo`. Shown in the replay
// of a person's (agent human) finished run to leads (with the buttons) and reviewers (the verdicts only).
import { useState } from 'react';
import { useCall } from '../data/use-call';
import { perform } from '../data/engine';
import { putAnswer } from '../data/store';
import { formatScore } from '../../../shared/format';
import { useMe } from './AnnotationPanel';

export function DemonstrationReview({ runId, taskKey }: { runId: string; taskKey: string }) {
  const me = useMe();
  const [reason, setReason] = useState('');
  const [status, setStatus] = useState<string>();
  const mayRead = me?.role === 'lead' || me?.role === 'reviewer';
  const { data: view, error } = useCall('demos.get', mayRead ? { runId, taskKey } : undefined);
  if (error || !view?.byPerson) return null;
  const decide = async (verdict: 'accepted' | 'rejected') => {
    if (!reason.trim()) return setStatus(`give a reason before the demonstration is ${verdict}`);
    try {
      putAnswer(
        'demos.get',
        { runId, taskKey },
        await perform('demos.review', { runId, taskKey, verdict, reason }),
      );
      setReason('');
      setStatus(
        verdict === 'accepted'
          ? 'accepted: `proctor run --agent demo` now replays it for this task'
          : 'rejected: it is not offered as the task’s oracle',
      );
    } catch (e) {
      setStatus((e as Error).message);
    }
  };
  const latest = view.reviews.at(-1);
  return (
    <section className="demonstration-review" data-testid="demonstration-review">
      <strong>Demonstration</strong>{' '}
      <span data-testid="demonstration-status" className={view.status ? `state-${view.status}` : 'muted'}>
        {view.status ?? 'not reviewed'}
      </span>
      {view.score !== undefined && (
        <span
          data-testid="demonstration-score"
          className={view.score >= 1 ? 'ok' : view.score <= 0 ? 'bad' : ''}
          title="the rule score of the person's run"
        >
          {' '}
          · score {formatScore(view.score)}
        </span>
      )}
      {latest && (
        <span className="muted small">
          {' '}
          — {latest.author}: “{latest.reason}” {latest.at.slice(0, 16).replace('T', ' ')}
        </span>
      )}
      {me?.role === 'lead' && (
        <span className="demonstration-actions">
          {' '}
          <input
            aria-label="demonstration reason"
            placeholder="reason (required)"
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            size={40}
          />
          <button onClick={() => decide('accepted')}>Accept demonstration</button>
          <button onClick={() => decide('rejected')}>Reject demonstration</button>
        </span>
      )}
      {status && (
        <div className="muted small" data-testid="demonstration-message">
          {status}
        </div>
      )}
      {view.reviews.length > 1 && (
        <details className="small">
          <summary>{view.reviews.length} reviews</summary>
          {view.reviews.map((r) => (
            <div key={r.at + r.author}>
              {r.at.slice(0, 16).replace('T', ' ')} {r.author}: {r.verdict} — {r.reason}
            </div>
          ))}
        </details>
      )}
    </section>
  );
}
