// Replay of one task: filmstrip on top, steps at the side, the screenshot with the action (and SoM boxes) drawn
// on it; the registered sections at their places (safety, before / after, the recording, the verdicts: panels/)
// and the registered detail tabs below the stage.
// Steps are the harness's: entries grouped by their step number (several trajectory lines of one step shown
// within it, in order); links name `step=<harness step>` and, within a step, `entry=<position>`.
import { LoadError } from '../components/LoadError';
import { useCallback, useEffect, useLayoutEffect, useMemo, useState } from 'react';
import type { Action, StepRecord } from '../../../shared/run';
import { fileUrl, readOnlySite } from '../data/engine';
import { ExportVideo } from '../components/ExportVideo';
import { navigate, type Route } from '../route';
import { ActionOverlay, colourOf } from '../components/ActionOverlay';
import { AttemptsPanel } from '../components/RunStats';
import { isFirstUnsafe, UnsafeStepMark } from '../components/Safety';
import { describeAction } from '../../../shared/describe-action';
import { useRunEvents } from '../live';
import { LivePanel, usePending } from '../components/LivePanel';
import { formatDuration, formatScore } from '../../../shared/format';
import { CompareWith } from '../components/CompareWith';
import { RunControls } from '../components/RunControls';
import { DemonstrationReview } from '../components/DemonstrationReview';
import {
  endsOf,
  groupSteps,
  linkOf,
  moveFrom,
  isLiveTask,
  pointerBefore,
  selectEntry,
  type StepGroup,
} from '../step-groups';
import { EntryFlag, EntryWhat, isForeign, ToolAction, WouldRefuse } from '../components/StepEntry';
import { StartedAt, shownState } from '../components/RunFacts';
import { useCall } from '../data/use-call';
import { StepTabs } from '../panels/StepTabs';
import { ReplaySections, sectionsAt } from '../panels/ReplaySections';
import type { ReplayContext } from '../panels';

export function Replay({ runId, taskKey, route }: { runId: string; taskKey: string; route: Route }) {
  const tick = useRunEvents((e) => 'taskKey' in e && e.taskKey === taskKey);
  const awaiting = usePending(runId, taskKey);
  const following = !route.query.get('step');
  const showMarks = route.query.get('som') === '1';
  const compare = route.query.get('compare') === '1';
  const tab = route.query.get('tab');
  const set = useCallback(
    (patch: Record<string, string | undefined>) =>
      navigate(
        'runs',
        [runId],
        { ...Object.fromEntries(route.query.entries()), task: taskKey, ...patch },
        true,
      ),
    [route.query, runId, taskKey],
  );

  // A label of one's own re-reads the task (blind review lifts): `changes` in data/engine.
  const { data: traj, error } = useCall('runs.task', { runId, taskKey }, tick);

  const steps = useMemo(() => traj?.steps ?? [], [traj]);
  const groups = useMemo(() => groupSteps(steps), [steps]);
  const sel = selectEntry(
    groups,
    route.query.get('step'),
    route.query.get('entry'),
    isLiveTask(traj?.item.state),
  );
  const index = sel.index;
  const step = index >= 0 ? steps[index] : undefined;
  const group: StepGroup | undefined = groups[sel.group];
  const goTo = useCallback((i: number) => i >= 0 && set(linkOf(groups, i)), [groups, set]);
  const stepLabel = step
    ? `step ${step.step}${group && group.indices.length > 1 ? ` (${sel.within + 1} of ${group.indices.length})` : ''}`
    : '';

  // A link to a step opens with that step in view in the lists, not only on the stage.
  useEffect(() => {
    for (const el of document.querySelectorAll('.step-list li.current, .filmstrip .frame.current'))
      el.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [index, steps.length]);

  // Fetch the next steps' images ahead, so stepping forward shows them at once.
  useEffect(() => {
    for (const s of steps.slice(index + 1, index + 4)) {
      for (const p of [s.observation, s.screenshot]) if (p) new Image().src = fileUrl(p);
    }
  }, [steps, index]);

  // Subscribed in the commit (not after paint): a key pressed as soon as the new step shows acts on that step.
  useLayoutEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (
        e.target instanceof HTMLInputElement ||
        e.target instanceof HTMLTextAreaElement ||
        e.target instanceof HTMLSelectElement
      )
        return;
      // ←/→ walk every entry in turn (the lines of a step, then the next step); Shift or PageUp/PageDown by whole step.
      const byStep = e.shiftKey || e.key === 'PageDown' || e.key === 'PageUp';
      if (e.key === 'ArrowRight' || e.key === 'j' || e.key === 'PageDown')
        goTo(moveFrom(groups, sel, byStep ? 'step' : 'entry', 1));
      else if (e.key === 'ArrowLeft' || e.key === 'k' || e.key === 'PageUp')
        goTo(moveFrom(groups, sel, byStep ? 'step' : 'entry', -1));
      else if (e.key === 'Home') goTo(endsOf(groups).first);
      else if (e.key === 'End') goTo(endsOf(groups).last);
      else if (e.key === 's') set({ som: showMarks ? undefined : '1' });
      else if (e.key === 'b') set({ compare: compare ? undefined : '1' });
      else if (e.key === 'Escape') {
        if (compare) set({ compare: undefined });
        else navigate('runs', [runId]);
      } else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [groups, sel, goTo, set, showMarks, compare, runId]);

  const durations = useMemo(() => steps.map((s, i) => stepMs(s, steps[i + 1])), [steps]);
  const start = useMemo(() => pointerBefore(steps, index), [steps, index]);
  if (error)
    return (
      <LoadError
        error={error}
        back={[
          { label: `run ${runId}`, view: 'runs', rest: [runId] },
          { label: 'all runs', view: 'runs' },
        ]}
      />
    );
  if (!traj) return <div className="muted pad">Reading trajectory…</div>;
  const maxMs = Math.max(1, ...durations);
  const ctx: ReplayContext = {
    runId,
    taskKey,
    traj,
    step,
    previous: index > 0 ? steps[index - 1] : undefined,
    stepLabel,
    query: route.query,
    start,
    set,
    goToStep: (n, line) =>
      goTo(
        steps.findIndex(
          (e) => e.step === n && (line === undefined || e.line === undefined || e.line === line),
        ),
      ),
  };
  const beside = sectionsAt('beside-stage', ctx);
  const frameNo = (g: StepGroup, k: number) => (g.indices.length > 1 ? `${g.step}·${k + 1}` : String(g.step));

  return (
    <div className="replay" data-testid="replay">
      <div className="replay-head">
        <button onClick={() => navigate('runs', [runId])}>← {runId}</button>
        <span className="mono">{taskKey}</span>
        <span
          className={`state-${shownState(traj.item)}`}
          data-testid="replay-state"
          title={
            traj.item.outcome
              ? `how the harness's episode ended (${traj.item.state}); the score is apart`
              : undefined
          }
        >
          {shownState(traj.item)}
        </span>
        <span data-testid="replay-score">score {formatScore(traj.item.score)}</span>
        <ReplaySections place="head" ctx={ctx} />
        {traj.item.startedAt && <StartedAt at={traj.item.startedAt} source={traj.item.timeSource} />}
        {following && traj.item.state === 'running' && (
          <span className="live-dot" title="following the live task" />
        )}
        {isLiveTask(traj.item.state) && <RunControls runId={runId} keys />}
        <CompareWith runId={runId} taskKey={taskKey} step={step?.step} />
        {!readOnlySite && !isLiveTask(traj.item.state) && <ExportVideo runId={runId} taskKey={taskKey} />}
        <span className="muted small">
          ←/→ entry · shift+←/→ step · s SoM · b before/after · y copy link · Esc back
        </span>
      </div>
      <AttemptsPanel runId={runId} taskKey={taskKey} />
      {!isLiveTask(traj.item.state) && <DemonstrationReview runId={runId} taskKey={taskKey} />}
      {traj.task?.instruction && <div className="replay-instruction">{traj.task.instruction}</div>}
      {awaiting && <LivePanel runId={runId} taskKey={taskKey} awaiting={awaiting} />}
      <div className="filmstrip" data-testid="filmstrip">
        {groups.map((g) => (
          <div
            key={`g${g.step}`}
            className={`frame-group ${g.indices.length > 1 ? 'several' : ''}`}
            data-step={g.step}
          >
            {g.indices.map((i, k) => {
              const s = steps[i];
              return (
                <button
                  key={i}
                  className={`frame ${i === index ? 'current' : ''}`}
                  onClick={() => goTo(i)}
                  title={`step ${frameNo(g, k)}${s.line !== undefined ? ` · line ${s.line}` : ''}`}
                  data-testid="frame"
                  data-step={g.step}
                >
                  {s.screenshot || s.observation ? (
                    <img
                      src={fileUrl((s.screenshot ?? s.observation)!)}
                      alt={`step ${frameNo(g, k)}`}
                      loading="lazy"
                    />
                  ) : (
                    <span>{g.step}</span>
                  )}
                  <span className="frame-no">{frameNo(g, k)}</span>
                  {isFirstUnsafe(traj.item.safety, s) && (
                    <UnsafeStepMark safety={traj.item.safety!} where="frame" />
                  )}
                </button>
              );
            })}
          </div>
        ))}
      </div>
      <div className="timing-bar" data-testid="timing-bar" title="time per step; click to select">
        {steps.map((s, i) => (
          <button
            key={i}
            className={`tbar ${i === index ? 'current' : ''} ${s.error !== undefined || (!isForeign(s) && s.feedback) ? 'has-error' : ''}`}
            style={{ height: `${8 + (28 * durations[i]) / maxMs}px` }}
            onClick={() => goTo(i)}
            aria-label={`step ${s.step}: ${formatDuration(durations[i])}`}
          />
        ))}
      </div>
      <div className="replay-body">
        <ol className="step-list" data-testid="step-list">
          {groups.map((g, gi) => (
            <li
              key={`g${g.step}`}
              className={gi === sel.group ? 'current' : ''}
              onClick={() => goTo(g.indices[0])}
              data-step={g.step}
            >
              <span className="step-no">{g.step}</span>
              {g.indices.some((i) => isFirstUnsafe(traj.item.safety, steps[i])) && (
                <UnsafeStepMark safety={traj.item.safety!} where="step" />
              )}
              {g.indices.length === 1 ? (
                <>
                  <EntryWhat s={steps[g.indices[0]]} />
                  <EntryFlag s={steps[g.indices[0]]} />
                </>
              ) : (
                <div className="entries">
                  {g.indices.map((i, k) => (
                    <div
                      key={i}
                      className={`entry ${i === index ? 'current' : ''}`}
                      onClick={(e) => {
                        e.stopPropagation();
                        goTo(i);
                      }}
                      data-testid="step-entry"
                      title={
                        steps[i].line !== undefined ? `line ${steps[i].line} of the trajectory` : undefined
                      }
                    >
                      <span className="entry-no">{k + 1}</span>
                      <EntryWhat s={steps[i]} />
                      <EntryFlag s={steps[i]} />
                    </div>
                  ))}
                </div>
              )}
            </li>
          ))}
          {!steps.length && <li className="muted">No steps recorded.</li>}
        </ol>
        <div className="stage">
          <div className={beside.length ? 'stage-media' : undefined}>
            {step ? (
              <div>
                <ReplaySections place="over-stage" ctx={ctx} />
                <Shot
                  title={`${stepLabel}${step.line !== undefined ? ` · trajectory line ${step.line}` : ''}`}
                  src={
                    step.somObservation && showMarks
                      ? step.observation
                      : (step.observation ?? step.screenshot)
                  }
                  step={step}
                  showMarks={showMarks}
                  start={start}
                />
              </div>
            ) : (
              <div className="empty">No step.</div>
            )}
            <ReplaySections place="beside-stage" ctx={ctx} />
          </div>
          <div className="stage-controls">
            <label>
              <input
                type="checkbox"
                checked={showMarks}
                onChange={() => set({ som: showMarks ? undefined : '1' })}
                data-testid="som-toggle"
              />{' '}
              Set-of-Mark
            </label>
            <label>
              <input
                type="checkbox"
                checked={compare}
                onChange={() => set({ compare: compare ? undefined : '1' })}
              />{' '}
              before / after
            </label>
            <ReplaySections place="stage-controls" ctx={ctx} />
          </div>
          {step && (
            <StepTabs
              step={step}
              group={group ? group.indices.map((i) => steps[i]) : [step]}
              tab={tab}
              onTab={(id) => set({ tab: id })}
            />
          )}
        </div>
        <ReplaySections place="aside" ctx={ctx} />
      </div>
    </div>
  );
}

/** An entry's time: its recorded timing, or for a foreign entry the time to the next entry by the harness's timestamps. */
function stepMs(s: StepRecord, next?: StepRecord): number {
  const t = s.timing ?? {};
  const timed = (t.observeMs ?? 0) + (t.agentMs ?? 0) + (t.actMs ?? 0) + (t.storeMs ?? 0);
  if (timed || !isForeign(s) || !next) return timed;
  const gap = Date.parse(next.at) - Date.parse(s.at);
  return Number.isFinite(gap) && gap > 0 ? gap : 0;
}

function Shot({
  title,
  src,
  step,
  showMarks,
  start,
}: {
  title: string;
  src?: string;
  step?: StepRecord;
  showMarks: boolean;
  start?: { x: number; y: number };
}) {
  const [natural, setNatural] = useState<{ width: number; height: number }>();
  const [bad, setBad] = useState<string>();
  // A failed load is the failure of that one image: the next step's image (and its marks) must show again.
  useEffect(() => setBad(undefined), [src]);
  const screen = step?.screen ?? natural;
  return (
    <figure className="shot">
      <figcaption>{title}</figcaption>
      {src ? (
        <div className="shot-frame">
          <img
            src={fileUrl(src)}
            alt={title}
            data-testid="step-image"
            onLoad={(e) => {
              const img = e.currentTarget;
              if (img.naturalWidth > 10000 || img.naturalHeight > 10000)
                setBad(`image too large (${img.naturalWidth}×${img.naturalHeight}); not shown`);
              setNatural({ width: img.naturalWidth, height: img.naturalHeight });
            }}
            onError={() => setBad(`cannot load ${src}`)}
            style={bad ? { display: 'none' } : undefined}
          />
          {step && screen && !bad && (
            <ActionOverlay
              actions={step.actions}
              screen={screen}
              marks={step.marks}
              showMarks={showMarks}
              start={start}
            />
          )}
          {bad && <div className="error">{bad}</div>}
        </div>
      ) : (
        <div className="muted">no screenshot</div>
      )}
      {step && <TypedText actions={step.actions} />}
      {step && (step.toolAction || step.error !== undefined || step.wouldRefuse) && (
        <div className="entry-notes">
          {step.toolAction && <ToolAction tool={step.toolAction} />}
          {step.error !== undefined && (
            <div className="entry-error small" data-testid="stage-error">
              Error: {step.error}
            </div>
          )}
          {step.wouldRefuse && <WouldRefuse why={step.wouldRefuse} />}
        </div>
      )}
    </figure>
  );
}

function TypedText({ actions }: { actions: Action[] }) {
  const parts = actions
    .map((a, i) => ({ a, i }))
    .filter(
      ({ a }) =>
        a.type === 'write' ||
        a.type === 'hotkey' ||
        a.type === 'press' ||
        a.type === 'keyDown' ||
        a.type === 'keyUp',
    );
  if (!parts.length) return null;
  return (
    <div className="typed">
      {parts.map(({ a, i }) => (
        <span
          key={i}
          className="chip"
          style={{ borderColor: colourOf(i), color: colourOf(i) }}
          data-testid="typed-mark"
        >
          {a.type === 'write' ? `⌨ “${a.text}”` : describeAction(a)}
        </span>
      ))}
    </div>
  );
}
