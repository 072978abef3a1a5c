// A person's labels on the task being replayed: the run label (complete / not complete / unsure, a comment) and
// a mark per step, by keyboard while stepping (1 right, 2 wrong, 3 unnecessary) or by button, with a note.
// The engine records the caller as author; in blind review it withholds scores until the label is in.
import { useCallback, useLayoutEffect, useMemo, useState } from 'react';
import type { TaskTrajectory } from '../../../shared/api';
import type { Caller } from '../../../shared/annotate';
import type { Completion, HumanLabel, JudgeVerdict, StepMark } from '../../../shared/run';
import type { Params } from '../../../shared/api';
import { perform } from '../data/engine';
import { navigate, useRoute } from '../route';
import { groupSteps, isLiveTask, selectEntry } from '../step-groups';
import { useCall } from '../data/use-call';

const markKeys: Record<string, StepMark> = { '1': 'right', '2': 'wrong', '3': 'unnecessary' };

/** Who the engine says the caller is (null while unknown). */
export function useMe(): (Caller & { team: boolean }) | null {
  return useCall('labels.me', {}).data ?? null;
}

export function AnnotationPanel({
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
  const me = useMe();
  const route = useRoute();
  // The harness's step in view (several entries of one step are marked together, as one step).
  const groups = useMemo(() => groupSteps(traj.steps), [traj.steps]);
  const stepNo =
    groups[
      selectEntry(groups, route.query.get('step'), route.query.get('entry'), isLiveTask(traj.item.state))
        .group
    ]?.step ?? 1;
  const [comment, setComment] = useState('');
  // Sub-scores: the judge's sub-goals when they are shown (not in blind review), each yes / no / unsure.
  const subGoals = useMemo(
    () =>
      traj.verdicts
        .filter((v): v is JudgeVerdict => v.kind === 'judge')
        .at(-1)
        ?.subScores.map((s) => s.name) ?? [],
    [traj.verdicts],
  );
  const [subScores, setSubScores] = useState<Record<string, Completion>>({});
  const [note, setNote] = useState('');
  const [status, setStatus] = useState<string>();
  const mine = useMemo(
    () =>
      traj.verdicts.filter(
        (v): v is HumanLabel => v.kind === 'human' && v.author === me?.person && !v.settles,
      ),
    [traj.verdicts, me],
  );
  // My latest mark per step (a later mark of a step is an edit: it is appended, the earlier stays).
  const marks = useMemo(() => {
    const m = new Map<number, StepMark>();
    for (const l of mine)
      for (const s of l.steps ?? []) m.set(s.step, s.mark ?? (s.correct ? 'right' : 'wrong'));
    return m;
  }, [mine]);
  const [pending, setPending] = useState(new Map<number, StepMark>());
  const shown = (n: number) => pending.get(n) ?? marks.get(n);

  const send = useCallback(
    async (label: Params<'labels.add'>['label'], done: string) => {
      try {
        await perform('labels.add', { runId, taskKey, label });
        setStatus(done);
        onLabelled?.();
      } catch (e) {
        setStatus((e as Error).message);
      }
    },
    [runId, taskKey, onLabelled],
  );
  // A mark lands on the step in view, then the view moves on to the next step (the last step says so).
  const groupNo = groups.findIndex((g) => g.step === stepNo);
  const last = groupNo === groups.length - 1;
  const markStep = useCallback(
    (mark: StepMark) => {
      if (!traj.steps.length) return;
      const again = (pending.get(stepNo) ?? marks.get(stepNo)) !== undefined;
      setPending((p) => new Map(p).set(stepNo, mark));
      const said = `step ${stepNo}: ${mark}${again ? ' (replaces your earlier mark)' : ''}${last ? ' · the last step: marks of it replace this one' : ''}`;
      void send({ steps: [{ step: stepNo, mark, ...(note ? { note } : {}) }] }, said);
      setNote('');
      const next = groups[groupNo + 1];
      if (next)
        navigate(
          'runs',
          [runId],
          {
            ...Object.fromEntries(route.query.entries()),
            task: taskKey,
            step: String(next.step),
            entry: undefined,
          },
          true,
        );
    },
    [
      send,
      stepNo,
      note,
      traj.steps.length,
      pending,
      marks,
      last,
      groups,
      groupNo,
      runId,
      taskKey,
      route.query,
    ],
  );
  // Subscribed in the commit (not after paint): a key pressed as soon as the new step shows acts on that step.
  useLayoutEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (
        e.target instanceof HTMLInputElement ||
        e.target instanceof HTMLTextAreaElement ||
        e.target instanceof HTMLSelectElement
      )
        return;
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      const mark = markKeys[e.key];
      if (!mark) return;
      e.preventDefault();
      markStep(mark);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [markStep]);

  const submit = (complete: Completion) => {
    const given = Object.entries(subScores).map(([name, evaluation]) => ({ name, evaluation }));
    void send(
      { complete, ...(comment ? { comment } : {}), ...(given.length ? { subScores: given } : {}) },
      `labelled ${complete}`,
    );
    setComment('');
    setSubScores({});
  };
  const mineNow = [...mine].reverse().find((l) => l.complete);
  return (
    <div className="label-form annotation" data-testid="annotation">
      <div className="muted small" data-testid="me">
        {me ? `labelling as ${me.person}${me.team ? ` (${me.role})` : ''}` : '…'}
        {traj.blind && <b className="blind-tag"> · blind</b>}
      </div>
      {mineNow && (
        <div className="small">
          your label: <span className={mineNow.complete}>{mineNow.complete}</span>
        </div>
      )}
      {subGoals.map((name) => (
        <label key={name} className="small sub-score">
          <select
            aria-label={`sub-score ${name}`}
            value={subScores[name] ?? ''}
            onChange={(e) => {
              const next = { ...subScores };
              if (e.target.value) next[name] = e.target.value as Completion;
              else delete next[name];
              setSubScores(next);
            }}
          >
            <option value="">–</option>
            <option value="yes">yes</option>
            <option value="no">no</option>
            <option value="unsure">unsure</option>
          </select>{' '}
          {name}
        </label>
      ))}
      <textarea
        placeholder="comment (optional)"
        value={comment}
        onChange={(e) => setComment(e.target.value)}
        rows={2}
        aria-label="comment"
      />
      <div className="buttons">
        <button onClick={() => submit('yes')}>complete</button>
        <button onClick={() => submit('no')}>not complete</button>
        <button onClick={() => submit('unsure')}>unsure</button>
      </div>
      {traj.steps.length > 0 && (
        <>
          <h3 data-testid="marking-step">
            Step {stepNo}
            {last && <span className="muted small"> · the last step</span>}
          </h3>
          <input
            placeholder="note on this step (optional)"
            value={note}
            onChange={(e) => setNote(e.target.value)}
            aria-label="step note"
          />
          <div className="buttons">
            {Object.entries(markKeys).map(([key, mark]) => (
              <button
                key={key}
                className={shown(stepNo) === mark ? 'active' : ''}
                onClick={() => markStep(mark)}
                title={`key ${key}`}
              >
                {key} {mark}
              </button>
            ))}
          </div>
          <ol className="step-marks small" data-testid="step-marks">
            {groups.map(({ step }) => (
              <li key={step} className={step === stepNo ? 'current' : ''}>
                {step}: <span className={`mark-${shown(step) ?? 'none'}`}>{shown(step) ?? '–'}</span>
              </li>
            ))}
          </ol>
        </>
      )}
      {status && (
        <div className="muted small" role="status">
          {status}
        </div>
      )}
      <div className="muted small">
        1 right · 2 wrong · 3 unnecessary (marks this step, then moves to the next)
      </div>
    </div>
  );
}
