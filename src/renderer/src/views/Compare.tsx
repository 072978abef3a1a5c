// Several runs of one task side by side (#/compare?run=…&run=…&task=…&step=N): the verdicts in one row, every
// run's screenshot at the same step with its actions drawn, stepped in sync with ←/→, and a strip over the steps
// that marks where the runs part — by action (from runs.compare) and by screen (runs.stepDiffs, which arrives
// after the first paint). Without a task it lists the tasks the runs share, flipped ones first.
import { useEffect, useLayoutEffect, useMemo, useState } from 'react';
import type { StepDifferences, TaskComparison } from '../../../shared/api';
import type { RunTaskItem, StepRecord } from '../../../shared/run';
import { compareLink, compareRunLimits, replayLink } from '../../../shared/links';
import { sameStepActions } from '../../../shared/divergence';
import { fileUrl } from '../data/engine';
import { useCall, useCalls } from '../data/use-call';
import type { Route } from '../route';
import { ActionOverlay } from '../components/ActionOverlay';
import { EntryWhat, isForeign } from '../components/StepEntry';
import { PairedPanel } from '../components/RunStats';

const go = (hash: string, replace = false) => {
  if (replace) {
    history.replaceState(null, '', hash);
    window.dispatchEvent(new HashChangeEvent('hashchange'));
  } else location.hash = hash.slice(1);
};

export function CompareView({ route }: { route: Route }) {
  const runs = route.query.getAll('run').slice(0, compareRunLimits.max);
  const taskKey = route.query.get('task') ?? undefined;
  if (runs.length < compareRunLimits.min)
    return (
      <div className="empty" data-testid="compare-empty">
        Pick {compareRunLimits.min} to {compareRunLimits.max} runs in the <a href="#/runs">Runs</a> list (tick
        them, then “Compare”).
      </div>
    );
  if (!taskKey) return <SharedTasks runs={runs} />;
  return <SideBySide runs={runs} taskKey={taskKey} route={route} />;
}

/** The tasks every chosen run has, each run's outcome in one row; tasks whose scores differ come first. */
function SharedTasks({ runs }: { runs: string[] }) {
  const { data: details, error } = useCalls(
    'runs.get',
    runs.map((runId) => ({ runId })),
  );
  const rows = useMemo(() => {
    if (!details) return [];
    const maps = details.map((d) => new Map(d.tasks.map((t) => [t.key, t])));
    const keys = [...maps[0].keys()].filter((k) => maps.every((m) => m.has(k)));
    const items = keys.map((k) => ({ key: k, items: maps.map((m) => m.get(k)!) }));
    const flipped = (r: { items: RunTaskItem[] }) => new Set(r.items.map((t) => t.score ?? -1)).size > 1;
    return items
      .sort((a, b) => Number(flipped(b)) - Number(flipped(a)) || a.key.localeCompare(b.key))
      .map((r) => ({ ...r, flipped: flipped(r) }));
  }, [details]);
  if (error) return <div className="error pad">{error}</div>;
  if (!details) return <div className="muted pad">Reading runs…</div>;
  return (
    <div className="pad">
      <PairedPanel runs={runs} />
      <h2 className="small muted">
        {rows.length} tasks in all {runs.length} runs · {rows.filter((r) => r.flipped).length} with different
        scores
      </h2>
      <table className="grid" data-testid="shared-tasks">
        <thead>
          <tr>
            <th>task</th>
            {details.map((d) => (
              <th key={d.run.path} className="mono">
                {d.run.path}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr
              key={r.key}
              className={`clickable ${r.flipped ? 'flipped' : ''}`}
              onClick={() => go(compareLink(runs, r.key))}
              data-testid="shared-task-row"
            >
              <td className="mono">{r.key}</td>
              {r.items.map((t, i) => (
                <td key={i}>
                  <Outcome item={t} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Outcome({ item }: { item: RunTaskItem }) {
  return (
    <span className="outcome">
      <span className={`state-${item.state}`}>{item.state}</span> · score{' '}
      <b className={item.score === 1 ? 'ok' : item.score === 0 ? 'bad' : ''}>{item.score ?? '–'}</b>
      {item.judge && <span className={item.judge}> · judge {item.judge}</span>}
      {item.human && <span className={item.human}> · human {item.human}</span>}
    </span>
  );
}

function SideBySide({ runs, taskKey, route }: { runs: string[]; taskKey: string; route: Route }) {
  const { data: cmp, error } = useCall('runs.compare', { runIds: runs, taskKey });
  // The screens' differences arrive after the first paint; without them the strip shows the actions' divergence.
  const { data: diffs, error: diffsError } = useCall('runs.stepDiffs', { runIds: runs, taskKey });

  const longest = Math.max(1, ...(cmp?.runs.map((r) => r.steps.length) ?? [1]));
  const stepNo = Math.min(Math.max(Number(route.query.get('step') ?? '1') || 1, 1), longest);
  const index = stepNo - 1;
  const setStep = (n: number) => go(compareLink(runs, taskKey, Math.min(Math.max(n, 1), longest)), true);

  // Subscribed in the commit (not after paint): a key pressed as soon as the new step shows acts on that step.
  useLayoutEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (
        e.target instanceof HTMLInputElement ||
        e.target instanceof HTMLTextAreaElement ||
        e.target instanceof HTMLSelectElement
      )
        return;
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      if (e.key === 'ArrowRight') setStep(stepNo + 1);
      else if (e.key === 'ArrowLeft') setStep(stepNo - 1);
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  // Fetch every run's next steps ahead, so stepping shows them at once.
  useEffect(() => {
    for (const r of cmp?.runs ?? [])
      for (const s of r.steps.slice(index + 1, index + 4)) {
        const p = s.observation ?? s.screenshot;
        if (p) new Image().src = fileUrl(p);
      }
  }, [cmp, index]);

  if (error) return <div className="error pad">{error}</div>;
  if (!cmp) return <div className="muted pad">Reading trajectories…</div>;
  const action = cmp.actionDivergence;
  const screen = diffs?.screenDivergence;
  const first = [action, screen].filter((s): s is number => s !== undefined);
  const firstDivergence = first.length ? Math.min(...first) : undefined;
  const reference = cmp.runs[0].steps[index];
  const cols = { gridTemplateColumns: `repeat(${cmp.runs.length}, minmax(0, 1fr))` };

  return (
    <div className="side-by-side" data-testid="compare-view">
      <div className="replay-head">
        <button onClick={() => go(compareLink(runs))}>← tasks of these runs</button>
        <span className="mono">{taskKey}</span>
        <span data-testid="compare-step">
          step {stepNo} of {longest}
        </span>
        {firstDivergence !== undefined && (
          <button onClick={() => setStep(firstDivergence)} data-testid="jump-divergence">
            first divergence: step {firstDivergence}
          </button>
        )}
        {firstDivergence === undefined && (
          <span className="muted" title={diffsError}>
            {diffs
              ? 'the runs do the same throughout'
              : diffsError
                ? 'the runs act the same throughout (screens not compared)'
                : 'comparing screens…'}
          </span>
        )}
        <span className="muted small">←/→ step all runs · y copy link</span>
      </div>
      <div className="cmp-grid cmp-verdicts" style={cols} data-testid="compare-verdicts">
        {cmp.runs.map((r) => (
          <div key={r.run.path} className="cmp-verdict">
            <a
              className="mono"
              href={replayLink(r.run.path, taskKey, r.steps[Math.min(stepNo, r.steps.length) - 1]?.step)}
              title="open this run's replay at this step"
            >
              {r.run.path}
            </a>
            <div className="muted small">
              {[r.run.agent, r.run.model].filter(Boolean).join(' / ') || 'agent unknown'} · {r.steps.length}{' '}
              steps
            </div>
            <Outcome item={r.item} />
          </div>
        ))}
      </div>
      <DivergenceStrip cmp={cmp} diffs={diffs} longest={longest} current={stepNo} onStep={setStep} />
      <div className="cmp-grid cmp-stage" style={cols}>
        {cmp.runs.map((r, i) => {
          const s = r.steps[index];
          const differs = i > 0 && !!s && !!reference && !sameStepActions(reference, s);
          const d = i > 0 ? diffs?.diffs[i - 1]?.[index] : undefined;
          return (
            <div
              key={r.run.path}
              className={`cmp-panel ${differs ? 'differs' : ''}`}
              data-testid="compare-panel"
              data-differs={differs ? '1' : '0'}
            >
              {s ? (
                <CompareShot step={s} />
              ) : (
                <div className="empty">
                  ended at step {r.steps.length} ({r.item.state})
                </div>
              )}
              <div className="cmp-caption small">
                {!s ? (
                  <span className="muted">ended at step {r.steps.length}</span>
                ) : i === 0 ? (
                  <span className="muted">reference</span>
                ) : !reference ? (
                  <span className="warning">the reference ended at step {cmp.runs[0].steps.length}</span>
                ) : differs ? (
                  <span className="warning">acts differently</span>
                ) : (
                  <span className="muted">same action</span>
                )}
                {d !== undefined && d !== null && (
                  <span className="muted"> · screen differs {(d * 100).toFixed(1)}%</span>
                )}
                {s && isForeign(s) && (
                  <span className="muted">
                    {' '}
                    · harness step {s.step}
                    {s.line !== undefined ? `, line ${s.line}` : ''}
                  </span>
                )}
              </div>
            </div>
          );
        })}
      </div>
    </div>
  );
}

/** One cell per step: how far the screens differ (shade), and markers on the first divergence by action and by screen. */
function DivergenceStrip({
  cmp,
  diffs,
  longest,
  current,
  onStep,
}: {
  cmp: TaskComparison;
  diffs?: StepDifferences;
  longest: number;
  current: number;
  onStep: (n: number) => void;
}) {
  const cells = [];
  for (let n = 1; n <= longest; n++) {
    const d = Math.max(0, ...(diffs?.diffs.map((r) => r[n - 1] ?? 0) ?? [0]));
    const shade = diffs ? Math.min(1, d / (diffs.threshold * 4)) : 0;
    const isAction = cmp.actionDivergence === n;
    const isScreen = diffs?.screenDivergence === n;
    cells.push(
      <button
        key={n}
        className={`dcell ${n === current ? 'current' : ''} ${isAction ? 'div-action' : ''} ${isScreen ? 'div-screen' : ''}`}
        style={{ background: `rgba(248, 81, 73, ${0.15 + 0.85 * shade})` }}
        onClick={() => onStep(n)}
        title={`step ${n}${isAction ? ' · actions part here' : ''}${isScreen ? ' · screens part here' : ''}${diffs ? ` · screen difference ${(d * 100).toFixed(1)}%` : ''}`}
        data-step={n}
      >
        {n}
        {isAction && (
          <span className="dmark" data-testid="divergence-action" data-step={n}>
            A
          </span>
        )}
        {isScreen && (
          <span className={`dmark ${isAction ? 'second' : ''}`} data-testid="divergence-screen" data-step={n}>
            S
          </span>
        )}
      </button>,
    );
  }
  return (
    <div className="divergence-strip" data-testid="divergence-strip">
      {cells}
      <span className="muted small legend">A: actions part · S: screens part · shade: screen difference</span>
    </div>
  );
}

function CompareShot({ step }: { step: StepRecord }) {
  const src = step.observation ?? step.screenshot;
  const [natural, setNatural] = useState<{ width: number; height: number }>();
  const screen = step.screen ?? natural;
  return (
    <figure className="shot">
      {src ? (
        <div className="shot-frame">
          <img
            src={fileUrl(src)}
            alt={`step ${step.step}`}
            data-testid="compare-image"
            onLoad={(e) =>
              setNatural({ width: e.currentTarget.naturalWidth, height: e.currentTarget.naturalHeight })
            }
          />
          {screen && (
            <ActionOverlay actions={step.actions} screen={screen} marks={step.marks} showMarks={false} />
          )}
        </div>
      ) : (
        <div className="muted">no screenshot</div>
      )}
      <div className="typed">
        <EntryWhat s={step} />
      </div>
    </figure>
  );
}
