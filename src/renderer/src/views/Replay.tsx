// Replay of one task: filmstrip on top, steps at the side, the screenshot with the action (and SoM boxes)
// drawn on it, before / after side by side, detail tabs, and the verdicts side by side.
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { TaskTrajectory } from '../../../shared/api';
import type { Action, StepRecord } from '../../../shared/run';
import { client } from '../transport';
import { navigate, type Route } from '../route';
import { ActionOverlay, colourOf } from '../components/ActionOverlay';
import { VerdictPanel } from '../components/VerdictPanel';
import { describeAction } from '../../../shared/describe-action';
import { useRunEvents } from '../live';
import { LivePanel, usePending } from '../components/LivePanel';
import { formatDuration, formatScore, formatTokens } from '../../../shared/format';
import { CompareWith } from '../components/CompareWith';

type Tab = 'response' | 'actions' | 'feedback' | 'a11y' | 'timing';

export function Replay({ runId, taskKey, route }: { runId: string; taskKey: string; route: Route }) {
  const [traj, setTraj] = useState<TaskTrajectory>();
  const [error, setError] = useState<string>();
  const [labelled, setLabelled] = useState(0); // a label of one's own re-reads the task (blind review lifts)
  const tick = useRunEvents((e) => 'taskKey' in e && e.taskKey === taskKey);
  const awaiting = usePending(runId, taskKey);
  const following = !route.query.get('step');
  const stepNo = Number(route.query.get('step') ?? String(traj?.steps.length ?? 1)) || 1;
  const showMarks = route.query.get('som') === '1';
  const compare = route.query.get('compare') === '1';
  const tab = (route.query.get('tab') as Tab) ?? 'response';
  const set = useCallback(
    (patch: Record<string, string | undefined>) => navigate('runs', [runId], { ...Object.fromEntries(route.query.entries()), task: taskKey, ...patch }, true),
    [route.query, runId, taskKey],
  );

  useEffect(() => {
    client.call('runs.task', { runId, taskKey }).then(setTraj, (e: Error) => setError(e.message));
  }, [runId, taskKey, tick, labelled]);

  const steps = useMemo(() => traj?.steps ?? [], [traj]);
  const index = Math.min(Math.max(stepNo, 1), Math.max(steps.length, 1)) - 1;
  const step = steps[index];

  // A link to a step opens with that step in view in the lists, not only on the stage.
  useEffect(() => {
    for (const el of document.querySelectorAll('.step-list li.current, .filmstrip .frame.current')) el.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [index, steps.length]);

  // Fetch the next steps' images ahead, so stepping forward shows them at once.
  useEffect(() => {
    for (const s of steps.slice(index + 1, index + 4)) {
      for (const p of [s.observation, s.screenshot]) if (p) new Image().src = client.fileUrl(p);
    }
  }, [steps, index]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement || e.target instanceof HTMLSelectElement) return;
      const go = (n: number) => set({ step: String(Math.min(Math.max(n, 1), steps.length)) });
      if (e.key === 'ArrowRight' || e.key === 'j') go(index + 2);
      else if (e.key === 'ArrowLeft' || e.key === 'k') go(index);
      else if (e.key === 'Home') go(1);
      else if (e.key === 'End') go(steps.length);
      else if (e.key === 's') set({ som: showMarks ? undefined : '1' });
      else if (e.key === 'b') set({ compare: compare ? undefined : '1' });
      else if (e.key === 'Escape') navigate('runs', [runId]);
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [index, steps.length, set, showMarks, compare, runId]);

  if (error) return <div className="error pad">{error}</div>;
  if (!traj) return <div className="muted pad">Reading trajectory…</div>;
  const maxMs = Math.max(1, ...steps.map(stepMs));
  const before = index > 0 ? steps[index - 1] : undefined;

  return (
    <div className="replay" data-testid="replay">
      <div className="replay-head">
        <button onClick={() => navigate('runs', [runId])}>← {runId}</button>
        <span className="mono">{taskKey}</span>
        <span className={`state-${traj.item.state}`}>{traj.item.state}</span>
        <span>score {formatScore(traj.item.score)}</span>
        {following && traj.item.state === 'running' && <span className="live-dot" title="following the live task" />}
        <CompareWith runId={runId} taskKey={taskKey} step={step?.step} />
        <span className="muted small">←/→ step · s SoM · b before/after · y copy link · Esc back</span>
      </div>
      {traj.task?.instruction && <div className="replay-instruction">{traj.task.instruction}</div>}
      {awaiting && <LivePanel runId={runId} taskKey={taskKey} awaiting={awaiting} />}
      <div className="filmstrip" data-testid="filmstrip">
        {steps.map((s, i) => (
          <button key={s.step} className={`frame ${i === index ? 'current' : ''}`} onClick={() => set({ step: String(i + 1) })} title={`step ${s.step}`}>
            {s.screenshot || s.observation ? <img src={client.fileUrl((s.screenshot ?? s.observation)!)} alt={`step ${s.step}`} loading="lazy" /> : <span>{s.step}</span>}
            <span className="frame-no">{s.step}</span>
          </button>
        ))}
      </div>
      <div className="timing-bar" data-testid="timing-bar" title="time per step; click to select">
        {steps.map((s, i) => (
          <button
            key={s.step}
            className={`tbar ${i === index ? 'current' : ''} ${s.feedback ? 'has-error' : ''}`}
            style={{ height: `${8 + (28 * stepMs(s)) / maxMs}px` }}
            onClick={() => set({ step: String(i + 1) })}
            aria-label={`step ${s.step}: ${formatDuration(stepMs(s))}`}
          />
        ))}
      </div>
      <div className="replay-body">
        <ol className="step-list" data-testid="step-list">
          {steps.map((s, i) => (
            <li key={s.step} className={i === index ? 'current' : ''} onClick={() => set({ step: String(i + 1) })}>
              <span className="step-no">{s.step}</span>
              <span className="step-actions">
                {s.actions.length ? (
                  s.actions.map((a, j) => (
                    <span key={j} className="chip" style={{ borderColor: colourOf(j), color: colourOf(j) }}>
                      {describeAction(a)}
                    </span>
                  ))
                ) : s.actionText ? (
                  <span className="chip" style={{ overflowWrap: 'anywhere' }} title={s.actionText} data-testid="action-text">
                    {s.actionText}
                  </span>
                ) : (
                  <span className="muted">{s.feedback ? 'refused' : 'no action'}</span>
                )}
              </span>
              {s.feedback && <span className="error small">⚠</span>}
            </li>
          ))}
          {!steps.length && <li className="muted">No steps recorded.</li>}
        </ol>
        <div className="stage">
          {step ? (
            <div className={compare ? 'compare' : ''}>
              {compare && <Shot title={`before (step ${index})`} src={before?.screenshot ?? step.observation} step={undefined} showMarks={false} />}
              <Shot title={compare ? `step ${step.step}: action` : `step ${step.step}`} src={step.somObservation && showMarks ? step.observation : (step.observation ?? step.screenshot)} step={step} showMarks={showMarks} />
              {compare && <Shot title={`after (step ${step.step})`} src={step.screenshot} step={undefined} showMarks={false} />}
            </div>
          ) : (
            <div className="empty">No step.</div>
          )}
          <div className="stage-controls">
            <label>
              <input type="checkbox" checked={showMarks} onChange={() => set({ som: showMarks ? undefined : '1' })} data-testid="som-toggle" /> Set-of-Mark
            </label>
            <label>
              <input type="checkbox" checked={compare} onChange={() => set({ compare: compare ? undefined : '1' })} /> before / after
            </label>
          </div>
          {step && <StepTabs step={step} tab={tab} onTab={(t) => set({ tab: t })} />}
        </div>
        <VerdictPanel traj={traj} runId={runId} taskKey={taskKey} onLabelled={() => setLabelled((n) => n + 1)} />
      </div>
    </div>
  );
}

function stepMs(s: StepRecord): number {
  const t = s.timing ?? {};
  return (t.observeMs ?? 0) + (t.agentMs ?? 0) + (t.actMs ?? 0) + (t.storeMs ?? 0);
}

function Shot({ title, src, step, showMarks }: { title: string; src?: string; step?: StepRecord; showMarks: boolean }) {
  const [natural, setNatural] = useState<{ width: number; height: number }>();
  const [bad, setBad] = useState<string>();
  const screen = step?.screen ?? natural;
  return (
    <figure className="shot">
      <figcaption>{title}</figcaption>
      {src ? (
        <div className="shot-frame">
          <img
            src={client.fileUrl(src)}
            alt={title}
            data-testid="step-image"
            onLoad={(e) => {
              const img = e.currentTarget;
              if (img.naturalWidth > 10000 || img.naturalHeight > 10000) setBad(`image too large (${img.naturalWidth}×${img.naturalHeight}); not shown`);
              setNatural({ width: img.naturalWidth, height: img.naturalHeight });
            }}
            onError={() => setBad(`cannot load ${src}`)}
            style={bad ? { display: 'none' } : undefined}
          />
          {step && screen && !bad && <ActionOverlay actions={step.actions} screen={screen} marks={step.marks} showMarks={showMarks} />}
          {bad && <div className="error">{bad}</div>}
        </div>
      ) : (
        <div className="muted">no screenshot</div>
      )}
      {step && <TypedText actions={step.actions} />}
    </figure>
  );
}

function TypedText({ actions }: { actions: Action[] }) {
  const parts = actions
    .map((a, i) => ({ a, i }))
    .filter(({ a }) => a.type === 'write' || a.type === 'hotkey' || a.type === 'press' || a.type === 'keyDown' || a.type === 'keyUp');
  if (!parts.length) return null;
  return (
    <div className="typed">
      {parts.map(({ a, i }) => (
        <span key={i} className="chip" style={{ borderColor: colourOf(i), color: colourOf(i) }} data-testid="typed-mark">
          {a.type === 'write' ? `⌨ “${a.text}”` : describeAction(a)}
        </span>
      ))}
    </div>
  );
}

function StepTabs({ step, tab, onTab }: { step: StepRecord; tab: Tab; onTab: (t: Tab) => void }) {
  const [a11y, setA11y] = useState<string>();
  useEffect(() => {
    setA11y(undefined);
    if (tab === 'a11y' && step.a11yTable) {
      fetch(client.fileUrl(step.a11yTable))
        .then((r) => (r.ok ? r.text() : `cannot load (${r.status})`))
        .then((t) => setA11y(t.slice(0, 500_000)), (e: Error) => setA11y(e.message));
    }
  }, [tab, step.a11yTable]);
  const tabs: [Tab, string][] = [
    ['response', 'Model reply'],
    ['actions', 'Parsed actions'],
    ['feedback', 'Feedback'],
    ['a11y', 'Accessibility'],
    ['timing', 'Tokens & timing'],
  ];
  return (
    <div className="tabs">
      <div className="tab-bar" role="tablist">
        {tabs.map(([t, label]) => (
          <button key={t} role="tab" aria-selected={tab === t} className={tab === t ? 'current' : ''} onClick={() => onTab(t)}>
            {label}
            {t === 'feedback' && step.feedback ? ' ⚠' : ''}
          </button>
        ))}
      </div>
      <div className="tab-body" data-testid={`tab-${tab}`}>
        {tab === 'response' && <pre>{step.response ?? '(no reply recorded)'}</pre>}
        {tab === 'actions' && <pre>{JSON.stringify(step.actions, null, 2)}</pre>}
        {tab === 'feedback' && <pre>{step.feedback ?? 'No errors or refusals at this step.'}</pre>}
        {tab === 'a11y' && <pre>{step.a11yTable ? (a11y ?? 'Loading…') : 'No accessibility table at this step.'}</pre>}
        {tab === 'timing' && (
          <table className="grid small">
            <tbody>
              <tr><td>prompt tokens</td><td>{formatTokens(step.tokens?.prompt)}</td></tr>
              <tr><td>completion tokens</td><td>{formatTokens(step.tokens?.completion)}</td></tr>
              <tr><td>observe</td><td>{formatDuration(step.timing?.observeMs)}</td></tr>
              <tr><td>agent</td><td>{formatDuration(step.timing?.agentMs)}</td></tr>
              <tr><td>act</td><td>{formatDuration(step.timing?.actMs)}</td></tr>
              <tr><td>store</td><td>{formatDuration(step.timing?.storeMs)}</td></tr>
              <tr><td>at</td><td>{step.at}</td></tr>
            </tbody>
          </table>
        )}
      </div>
    </div>
  );
}
