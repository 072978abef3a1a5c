// Cross-validation of a task (Spider2-V §3.1): the reviews so far, the status that follows, and a checklist
// (a)–(e) — each check pass / fail / unsure with a note — recorded as the logged-in person.
import { useEffect, useState } from 'react';
import { perform } from '../data/engine';
import { putAnswer } from '../data/store';
import { useCall } from '../data/use-call';
import { routeHref } from '../route';

type CheckId = 'a' | 'b' | 'c' | 'd' | 'e';
type Verdict = 'pass' | 'fail' | 'unsure';
const checks: [CheckId, string][] = [
  ['a', 'reflects a real-world use case'],
  ['b', 'the verbose instruction fulfils the abstract one'],
  ['c', 'resets to the same state in different trials (proctor review reset)'],
  ['d', 'scores 1 when the instruction is followed'],
  ['e', 'scores 0 when mistakes are made on purpose (proctor selftest)'],
];

export function TaskReviewPanel({ path }: { path: string }) {
  const { data: view, error } = useCall('reviews.get', { task: path });
  const [form, setForm] = useState<Partial<Record<CheckId, { verdict: Verdict; note: string }>>>({});
  const [status, setStatus] = useState<string>();
  // Proctor's evidence pre-fills checks c–e when the task's reviews first arrive; the reviewer may change them.
  const [filledFor, setFilledFor] = useState<string>();
  useEffect(() => {
    if (!view || filledFor === path) return;
    setFilledFor(path);
    setForm(Object.fromEntries(view.evidence.map((e) => [e.check, { verdict: e.verdict, note: e.note }])));
  }, [view, path, filledFor]);
  useEffect(() => setStatus(error), [error]);
  const submit = async () => {
    const given = Object.fromEntries(
      Object.entries(form).map(([c, v]) => [
        c,
        { verdict: v!.verdict, ...(v!.note ? { note: v!.note } : {}) },
      ]),
    );
    if (!Object.keys(given).length) return setStatus('give a verdict for at least one check');
    try {
      putAnswer('reviews.get', { task: path }, await perform('reviews.add', { task: path, checks: given }));
      setForm({});
      setStatus('review recorded');
    } catch (e) {
      setStatus((e as Error).message);
    }
  };
  return (
    <section className="task-review" data-testid="task-review">
      <h3>
        Cross-validation: <span data-testid="task-status">{view?.status ?? '…'}</span>
      </h3>
      {view?.reviewers.map((r) => (
        <div key={r.person} className="small">
          {r.person}: {r.outcome} <span className="muted">{r.at.slice(0, 16).replace('T', ' ')}</span>
        </div>
      ))}
      <table className="small">
        <tbody>
          {checks.map(([id, title]) => (
            <tr key={id}>
              <td>
                ({id}) {title}
                {view?.evidence.find((e) => e.check === id) && (
                  <div className="muted" data-testid={`evidence-${id}`}>
                    evidence: {view.evidence.find((e) => e.check === id)!.verdict} —{' '}
                    {view.evidence.find((e) => e.check === id)!.note}
                  </div>
                )}
              </td>
              <td>
                <select
                  aria-label={`check ${id}`}
                  value={form[id]?.verdict ?? ''}
                  onChange={(e) =>
                    setForm({
                      ...form,
                      [id]: { verdict: e.target.value as Verdict, note: form[id]?.note ?? '' },
                    })
                  }
                >
                  <option value="">–</option>
                  <option value="pass">pass</option>
                  <option value="fail">fail</option>
                  <option value="unsure">unsure</option>
                </select>
              </td>
              <td>
                <input
                  aria-label={`note ${id}`}
                  placeholder="note"
                  value={form[id]?.note ?? ''}
                  disabled={!form[id]}
                  onChange={(e) =>
                    setForm({ ...form, [id]: { verdict: form[id]!.verdict, note: e.target.value } })
                  }
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="small" data-testid="task-demonstrations">
        accepted demonstrations:{' '}
        {view?.demonstrations?.length ? (
          view.demonstrations.map((d) => (
            <div key={d.runId + d.taskKey}>
              <a href={routeHref('runs', [d.runId], { task: d.taskKey })}>{d.runId}</a> — {d.author}:{' '}
              {d.reason} <span className="muted">{d.at.slice(0, 16).replace('T', ' ')}</span>
            </div>
          ))
        ) : (
          <span className="muted">
            none (a lead accepts a person’s run in its replay; `proctor run --agent demo` replays the latest)
          </span>
        )}
      </div>
      <button onClick={submit}>record review</button>
      {status && <div className="muted small">{status}</div>}
    </section>
  );
}
