// The verdicts side by side: the rule score with each metric's value and reason, the judge's reason and
// sub-scores, and people's labels (add one here); disagreement between them is highlighted.
import { useState } from 'react';
import type { TaskTrajectory } from '../../../shared/api';
import type { Completion, HumanLabel, JudgeVerdict, RuleVerdict } from '../../../shared/run';
import { client } from '../transport';
import { formatScore } from '../../../shared/format';

/** The brittle-evaluator badge beside the rule score (inline: a small amber badge on the shared .badge). */
const brittleBadge = { marginLeft: 8, verticalAlign: 'middle', background: '#6b4a1a', color: '#ffd99a' } as const;

const asVote = (score: number | undefined): Completion | undefined => (score === undefined ? undefined : score >= 1 ? 'yes' : score <= 0 ? 'no' : undefined);

export function VerdictPanel({ traj, runId, taskKey }: { traj: TaskTrajectory; runId: string; taskKey: string }) {
  const rules = traj.verdicts.filter((v): v is RuleVerdict => v.kind === 'rule');
  const judges = traj.verdicts.filter((v): v is JudgeVerdict => v.kind === 'judge');
  const humans = traj.verdicts.filter((v): v is HumanLabel => v.kind === 'human');
  const rule = rules.at(-1);
  const judge = judges.at(-1);
  const votes = [asVote(rule?.score ?? traj.item.score), judge?.complete, ...humans.map((h) => h.complete)].filter((v) => v === 'yes' || v === 'no');
  const disagreement = new Set(votes).size > 1;
  return (
    <aside className={`verdicts ${disagreement ? 'disagree' : ''}`} data-testid="verdicts">
      {disagreement && <div className="disagree-banner">Verdicts disagree</div>}
      <section>
        <h3>Rule</h3>
        {rule ? (
          <>
            <div className={`big ${rule.score >= 1 ? 'ok' : rule.score <= 0 ? 'bad' : ''}`}>
              {formatScore(rule.score)}
              {rule.brittle?.length ? (
                <span className="badge brittle" data-testid="brittle-badge" style={brittleBadge} title={`brittle evaluator — the faithful and robust verdicts disagree:\n${rule.brittle.join('\n')}`}>
                  brittle evaluator
                </span>
              ) : null}
            </div>
            {rule.profile && <div className="muted small">graded as {rule.profile}</div>}
            {rule.error && <div className="error small">{rule.error}</div>}
            <ul className="small">
              {rule.metrics.map((m, i) => (
                <li key={i}>
                  <span className="mono">{m.metric}</span> = {formatScore(m.score)}
                  {m.reason && <div className="muted">{m.reason}</div>}
                  {m.error && <div className="error">{m.error}</div>}
                  {m.brittle && <div className="small" style={{ color: '#e0a040' }}>brittle: {m.brittle}{m.secondOpinion ? ` (robust: ${m.secondOpinion.reason})` : ''}</div>}
                </li>
              ))}
            </ul>
          </>
        ) : (
          <div className="muted">score {traj.item.score ?? '–'}{traj.item.error ? ` · ${traj.item.error}` : ''}</div>
        )}
      </section>
      <section>
        <h3>Judge</h3>
        {judge ? (
          <>
            <div className={`big ${judge.complete}`}>{judge.complete}</div>
            <div className="muted small">{judge.model}</div>
            {judge.error && <div className="error small">{judge.error}</div>}
            <ul className="small">
              {judge.subScores.map((s, i) => (
                <li key={i}>
                  <span className={s.evaluation}>{s.evaluation}</span> {s.name}
                </li>
              ))}
            </ul>
            <p className="small reason">{judge.reason}</p>
          </>
        ) : (
          <div className="muted small">not judged (run `proctor judge`)</div>
        )}
      </section>
      <section>
        <h3>People</h3>
        {humans.map((h, i) => (
          <div key={i} className="label small">
            <b>{h.author}</b>: <span className={h.complete}>{h.complete ?? '–'}</span> <span className="muted">{h.at.slice(0, 16).replace('T', ' ')}</span>
            {h.comment && <div>{h.comment}</div>}
          </div>
        ))}
        <LabelForm runId={runId} taskKey={taskKey} />
      </section>
    </aside>
  );
}

function LabelForm({ runId, taskKey }: { runId: string; taskKey: string }) {
  const [author, setAuthor] = useState(() => localStorage.getItem('proctor-author') ?? '');
  const [comment, setComment] = useState('');
  const [status, setStatus] = useState<string>();
  const submit = async (complete: Completion) => {
    if (!author.trim()) return setStatus('name yourself first');
    localStorage.setItem('proctor-author', author.trim());
    try {
      await client.call('labels.add', { runId, taskKey, label: { author: author.trim(), complete, comment: comment || undefined } });
      setComment('');
      setStatus(`labelled ${complete}`);
    } catch (e) {
      setStatus((e as Error).message);
    }
  };
  return (
    <div className="label-form">
      <input placeholder="your name" value={author} onChange={(e) => setAuthor(e.target.value)} aria-label="annotator" />
      <textarea placeholder="comment (optional)" value={comment} onChange={(e) => setComment(e.target.value)} rows={2} />
      <div className="buttons">
        <button onClick={() => submit('yes')}>complete</button>
        <button onClick={() => submit('no')}>not complete</button>
        <button onClick={() => submit('unsure')}>unsure</button>
      </div>
      {status && <div className="muted small">{status}</div>}
    </div>
  );
}
