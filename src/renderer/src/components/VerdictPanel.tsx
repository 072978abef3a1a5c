// The verdicts side by side: the rule score with each metric's value and reason, the judge's reason and
// sub-scores, and people's labels (add one here); disagreement between them is highlighted. In blind review
// the engine withholds the grades until the person has labelled, and this says so.
import type { TaskTrajectory } from '../../../shared/api';
import type { Completion, HumanLabel, JudgeVerdict, RuleVerdict } from '../../../shared/run';
import { formatScore } from '../../../shared/format';

/** The brittle-evaluator badge beside the rule score (inline: a small amber badge on the shared .badge). */
const brittleBadge = {
  marginLeft: 8,
  verticalAlign: 'middle',
  background: '#6b4a1a',
  color: '#ffd99a',
} as const;
import { AnnotationPanel } from './AnnotationPanel';
import { peopleNow, settlements } from '../people-labels';

const asVote = (score: number | undefined): Completion | undefined =>
  score === undefined ? undefined : score >= 1 ? 'yes' : score <= 0 ? 'no' : undefined;

export function VerdictPanel({
  traj,
  runId,
  taskKey,
  onLabelled,
}: {
  traj: TaskTrajectory;
  runId: string;
  taskKey: string;
  onLabelled?: () => void;
}) {
  const rules = traj.verdicts.filter((v): v is RuleVerdict => v.kind === 'rule');
  const judges = traj.verdicts.filter((v): v is JudgeVerdict => v.kind === 'judge');
  const humans = traj.verdicts.filter((v): v is HumanLabel => v.kind === 'human');
  const rule = rules.at(-1);
  const judge = judges.at(-1);
  // Each person is one voice (their latest label); a lead's settlement is shown apart.
  const people = peopleNow(humans);
  const settled = settlements(humans);
  const votes = [
    asVote(rule?.score ?? traj.item.score),
    judge?.complete,
    ...people.map((p) => p.complete),
  ].filter((v) => v === 'yes' || v === 'no');
  const disagreement = new Set(votes).size > 1;
  if (traj.blind)
    return (
      <aside className="verdicts blind" data-testid="verdicts">
        <div className="blind-banner" data-testid="blind">
          Blind review: the rule score, the judge&apos;s verdict and others&apos; labels show once you have
          labelled this task.
        </div>
        <AnnotationPanel traj={traj} runId={runId} taskKey={taskKey} onLabelled={onLabelled} />
      </aside>
    );
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
                <span
                  className="badge brittle"
                  data-testid="brittle-badge"
                  style={brittleBadge}
                  title={`brittle evaluator — the faithful and robust verdicts disagree:\n${rule.brittle.join('\n')}`}
                >
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
                  {m.brittle && (
                    <div className="small" style={{ color: '#e0a040' }}>
                      brittle: {m.brittle}
                      {m.secondOpinion ? ` (robust: ${m.secondOpinion.reason})` : ''}
                    </div>
                  )}
                </li>
              ))}
            </ul>
          </>
        ) : (
          <div className="muted">
            score {traj.item.score ?? '–'}
            {traj.item.error ? ` · ${traj.item.error}` : ''}
          </div>
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
        {people.map((p) => (
          <div key={p.person} className="label small" data-testid="person-label">
            <b>{p.person}</b>: <span className={p.complete}>{p.complete ?? '–'}</span>
            {p.marks.size > 0 && (
              <span className="muted">
                {' '}
                · {p.marks.size} step mark{p.marks.size > 1 ? 's' : ''}
              </span>
            )}{' '}
            <span
              className="muted"
              title={
                p.events > 1
                  ? `${p.events} label events; the latest count, the earlier stay as history`
                  : undefined
              }
            >
              {p.at.slice(0, 16).replace('T', ' ')}
              {p.events > 1 ? ` · ${p.events} events` : ''}
            </span>
            {p.comment && <div>{p.comment}</div>}
          </div>
        ))}
        {settled.map((h, i) => (
          <div key={`s${i}`} className="label small">
            <b>{h.author}</b>: <span className={h.complete}>{h.complete}</span>
            <span className="settled"> settled: {h.settles?.reason}</span>{' '}
            <span className="muted">{h.at.slice(0, 16).replace('T', ' ')}</span>
          </div>
        ))}
        <AnnotationPanel traj={traj} runId={runId} taskKey={taskKey} onLabelled={onLabelled} />
      </section>
    </aside>
  );
}
