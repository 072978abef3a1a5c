// People's labelling at a glance: "my work" (the next assigned item, n of m), the agreement matrix (kappa for
// each pair, the judge and the rule against each person, alpha over all) and the conflict queue a lead settles.
import { useState } from 'react';
import type { AgreementFigures, Conflict } from '../../../shared/annotate';
import type { Completion, SafetyLevel } from '../../../shared/run';
import { perform } from '../data/engine';
import { useCall } from '../data/use-call';
import { routeHref } from '../route';
import { useMe } from '../components/AnnotationPanel';

const fixed = (n: number | null | undefined) => (n === null || n === undefined ? '–' : n.toFixed(2));
const taskLink = (run: string, taskKey: string) => routeHref('runs', [run], { task: taskKey });

function MyWork() {
  const { data: queue, error } = useCall('labels.queue', {});
  if (error) return <div className="error">{error}</div>;
  if (!queue) return <div className="muted">…</div>;
  return (
    <section data-testid="my-work">
      <h2>My work</h2>
      <p>
        {queue.done} of {queue.total} labelled
        {queue.next ? (
          <>
            {' · '}
            <a href={taskLink(queue.next.run, queue.next.taskKey)} data-testid="next-item">
              next: {queue.next.run} {queue.next.taskKey}
            </a>
          </>
        ) : queue.total ? (
          ' · all done'
        ) : (
          ' · nothing assigned to you'
        )}
      </p>
    </section>
  );
}

/** The matrix: one row and column per rater, kappa in the cells (people's pairs, and judge / rule rows). */
export function AgreementMatrix({ figures, title }: { figures: AgreementFigures; title: string }) {
  const people = [
    ...new Set(
      figures.pairs
        .filter((p) => p.a !== 'judge' && p.a !== 'rule')
        .flatMap((p) => [p.a, p.b])
        .concat(figures.pairs.map((p) => p.b)),
    ),
  ].sort();
  const raters = [
    ...people,
    ...(['judge', 'rule'] as const).filter((m) => figures.pairs.some((p) => p.a === m)),
  ];
  const cell = (x: string, y: string) =>
    figures.pairs.find((p) => (p.a === x && p.b === y) || (p.a === y && p.b === x));
  return (
    <div>
      <h3>
        {title}: {figures.items} item(s), alpha {fixed(figures.alpha)}
      </h3>
      {!people.length && <div className="muted small">no item labelled by two raters</div>}
      <table data-testid="agreement-matrix" hidden={!people.length}>
        <thead>
          <tr>
            <th />
            {people.map((p) => (
              <th key={p}>{p}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {raters.map((r) => (
            <tr key={r}>
              <th>{r}</th>
              {people.map((p) => {
                const c = r === p ? undefined : cell(r, p);
                return (
                  <td key={p} title={c ? `${c.items} items, ${(c.observed * 100).toFixed(0)}% agree` : ''}>
                    {r === p ? '·' : c ? fixed(c.kappa) : ''}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Settle({ conflict }: { conflict: Conflict }) {
  const [reason, setReason] = useState('');
  const [status, setStatus] = useState<string>();
  const safety = conflict.why === 'safety';
  const settle = async (verdict: Completion | SafetyLevel) => {
    if (!reason.trim()) return setStatus('give a reason');
    try {
      const given = safety ? { safety: verdict as SafetyLevel } : { complete: verdict as Completion };
      // Settled, the conflicts (and the agreement, the queue) are read again: see `changes` in data/engine.
      await perform('labels.settle', {
        runId: conflict.run,
        taskKey: conflict.taskKey,
        ...given,
        reason: reason.trim(),
      });
    } catch (e) {
      setStatus((e as Error).message);
    }
  };
  return (
    <div className="settle-form">
      <input
        placeholder="reason"
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        aria-label="reason"
      />
      {(safety ? (['safe', 'unsafe', 'unsure'] as const) : (['yes', 'no', 'unsure'] as const)).map((c) => (
        <button key={c} onClick={() => settle(c)}>
          settle {c}
        </button>
      ))}
      {status && <span className="error small">{status}</span>}
    </div>
  );
}

function Conflicts({ lead }: { lead: boolean }) {
  const { data: conflicts, error } = useCall('labels.conflicts', {});
  if (error) return <div className="error">{error}</div>;
  if (!conflicts) return <div className="muted">…</div>;
  const open = conflicts.filter((c) => !(c.safety ? c.safety.settled : c.settled));
  return (
    <section data-testid="conflicts">
      <h2>
        Conflicts: {open.length} open of {conflicts.length}
      </h2>
      <table>
        <thead>
          <tr>
            <th>task</th>
            <th>why</th>
            <th>people</th>
            <th>rule</th>
            <th>judge</th>
            <th>settled</th>
          </tr>
        </thead>
        <tbody>
          {conflicts.map((c) => (
            <tr key={`${c.run}\u0000${c.taskKey}\u0000${c.why}`} data-testid="conflict-row" data-why={c.why}>
              <td>
                <a href={taskLink(c.run, c.taskKey)}>
                  {c.run} {c.taskKey}
                </a>
              </td>
              <td>
                {c.safety
                  ? `safety: ${c.safety.with === 'people' ? 'people disagree' : `people against the ${c.safety.with === 'rule' ? 'rules' : 'judge'}`}`
                  : c.why}
                {c.brittle?.length ? <div className="small muted">{c.brittle.join(' · ')}</div> : null}
              </td>
              <td>
                {c.safety
                  ? c.safety.people
                      .map(
                        (p) => `${p.person}: ${p.verdict}${p.step !== undefined ? ` (step ${p.step})` : ''}`,
                      )
                      .join(', ')
                  : c.people.map((p) => `${p.person}: ${p.complete}`).join(', ')}
              </td>
              <td>{(c.safety ? c.safety.rule : c.rule) ?? '–'}</td>
              <td>{(c.safety ? c.safety.judge : c.judge) ?? '–'}</td>
              <td>
                {c.safety?.settled ? (
                  <span>
                    {c.safety.settled.verdict} by {c.safety.settled.by}: {c.safety.settled.reason}
                  </span>
                ) : c.settled ? (
                  <span>
                    {c.settled.complete} by {c.settled.by}: {c.settled.reason}
                  </span>
                ) : lead ? (
                  <Settle conflict={c} />
                ) : (
                  'open'
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function Agreement() {
  const { data: report, error } = useCall('labels.agreement', {});
  if (error) return <div className="error">{error}</div>;
  if (!report) return <div className="muted">…</div>;
  return (
    <section data-testid="agreement">
      <h2>Agreement</h2>
      <AgreementMatrix figures={report} title="All" />
      {report.steps?.items ? (
        <AgreementMatrix figures={report.steps} title="Step marks (right / wrong / unnecessary)" />
      ) : null}
      {Object.entries(report.byApp).map(([app, f]) => (
        <AgreementMatrix key={app} figures={f} title={`App ${app}`} />
      ))}
      {Object.entries(report.byCategory).map(([cat, f]) => (
        <AgreementMatrix key={cat} figures={f} title={`Category ${cat}`} />
      ))}
      {report.safety?.items ? (
        <div data-testid="safety-agreement">
          <AgreementMatrix figures={report.safety} title="Safety (safe / unsafe / unsure)" />
          {Object.entries(report.safety.byApp).map(([app, f]) => (
            <AgreementMatrix key={app} figures={f} title={`Safety, app ${app}`} />
          ))}
        </div>
      ) : null}
    </section>
  );
}

/** A lead spreads runs over people: k per task, never the run's author, blind by default. */
function AssignForm() {
  const { data: runs = [], error: runsError } = useCall('runs.list', {});
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [people, setPeople] = useState('');
  const [perItem, setPerItem] = useState(2);
  const [blind, setBlind] = useState(true);
  const [status, setStatus] = useState<string>();
  const assign = async () => {
    try {
      const r = await perform('labels.assign', {
        runs: [...chosen],
        perItem,
        people: people
          .split(',')
          .map((p) => p.trim())
          .filter(Boolean),
        blind,
      });
      setStatus(
        `${r.assigned} assignment(s)${r.short.length ? `; ${r.short.length} task(s) could not get ${perItem} people` : ''}`,
      );
    } catch (e) {
      setStatus((e as Error).message);
    }
  };
  return (
    <section data-testid="assign">
      <h2>Assign</h2>
      <div className="small">
        {runs.map((r) => (
          <label key={r.path} style={{ display: 'block' }}>
            <input
              type="checkbox"
              checked={chosen.has(r.path)}
              onChange={() => {
                const next = new Set(chosen);
                if (next.has(r.path)) next.delete(r.path);
                else next.add(r.path);
                setChosen(next);
              }}
            />{' '}
            {r.path} ({r.tasks} tasks)
          </label>
        ))}
      </div>
      <div className="settle-form">
        <input
          placeholder="people: ann, bob, cyd"
          value={people}
          onChange={(e) => setPeople(e.target.value)}
          aria-label="people"
        />
        <label>
          per task{' '}
          <input
            type="number"
            min={1}
            max={50}
            value={perItem}
            onChange={(e) => setPerItem(Number(e.target.value) || 1)}
            aria-label="per task"
            style={{ width: '4em' }}
          />
        </label>
        <label>
          <input type="checkbox" checked={blind} onChange={() => setBlind(!blind)} /> blind
        </label>
        <button onClick={assign} disabled={!chosen.size}>
          assign
        </button>
      </div>
      {(status ?? runsError) && <div className="muted small">{status ?? runsError}</div>}
    </section>
  );
}

export function LabelsView() {
  const me = useMe();
  if (!me) return <div className="muted pad">…</div>;
  const sees = me.role !== 'annotator';
  return (
    <div className="labels-view" data-testid="labels-view">
      <p className="muted">
        {me.person} ({me.team ? me.role : 'alone'})
      </p>
      <MyWork />
      {sees && <Conflicts lead={me.role === 'lead'} />}
      {sees && <Agreement />}
      {me.role === 'lead' && <AssignForm />}
    </div>
  );
}
