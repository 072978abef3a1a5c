// Runs: the runs under the served folder; one run's tasks in a filterable, sortable, virtualised table with
// the success rate over all tasks at the top; a task opens its replay.
import { QueuePanel } from '../components/QueuePanel';
import { useEffect, useMemo, useState } from 'react';
import { useCall } from '../data/use-call';
import type { AttemptCause, RunListItem, RunTaskItem } from '../../../shared/run';
import { onRunEvent } from '../data/engine';
import { navigate, type Route } from '../route';
import { Badge, ProblemList } from '../components/Badges';
import { LoadError } from '../components/LoadError';
import { VirtualList } from '../components/VirtualList';
import { Replay } from './Replay';
import { useRunEvents } from '../live';
import { StartRunForm } from '../components/StartRunForm';
import { RunControls } from '../components/RunControls';
import { BreakdownPanel } from '../components/BreakdownPanel';
import { RunInterval, RunStatsPanel, causeLabels } from '../components/RunStats';
import { formatPercent, formatScore } from '../../../shared/format';
import { gradedCount, successRateOf } from '../../../shared/grading';
import { compareLink, compareRunLimits } from '../../../shared/links';
import { ScreenChip, SettingsChips, StartedAt, shownState } from '../components/RunFacts';
import { RunSafetyFigure, TaskSafetyChip } from '../components/Safety';

const pct = formatPercent;
/** A run's folder below the served one; the served folder itself (`.`, e.g. a UFO logs folder) by its name. */
const shownPath = (r: RunListItem) => (r.path === '.' ? r.runId : r.path);

export function RunsView({ route }: { route: Route }) {
  const runId = route.rest[0];
  const taskKey = route.query.get('task') ?? undefined;
  if (runId && taskKey) return <Replay runId={runId} taskKey={taskKey} route={route} />;
  if (runId) return <RunTable runId={runId} route={route} />;
  return <RunList />;
}

function RunList() {
  const [picked, setPicked] = useState<string[]>([]);
  const pick = (path: string, on: boolean) =>
    setPicked((p) =>
      on ? [...p.filter((x) => x !== path), path].slice(-compareRunLimits.max) : p.filter((x) => x !== path),
    );
  const tick = useRunEvents(() => true);
  const { data: runs, error } = useCall('runs.list', {}, tick);
  if (error) return <div className="error pad">{error}</div>;
  if (!runs) return <div className="muted pad">Reading runs…</div>;
  return (
    <div className="pad">
      <StartRunForm />
      {!runs.length && (
        <div className="empty">
          No runs below the served folder yet. Start one above, or with <code>npx proctor demo</code>.
        </div>
      )}
      {runs.length > 1 && (
        <div className="toolbar">
          <button
            disabled={picked.length < compareRunLimits.min}
            onClick={() => (location.hash = compareLink(picked).slice(1))}
            data-testid="compare-runs"
          >
            Compare {picked.length || ''} side by side
          </button>
          <span className="muted small">
            tick {compareRunLimits.min} to {compareRunLimits.max} runs of the same tasks
          </span>
        </div>
      )}
      <table className="grid" data-testid="run-list">
        <thead>
          <tr>
            <th className="run-pick" />
            <th>run</th>
            <th>format</th>
            <th>agent / model · settings</th>
            <th>started</th>
            <th>tasks</th>
            <th>success</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((r) => (
            <tr
              key={r.runId}
              className="clickable"
              onClick={() => navigate('runs', [r.runId])}
              data-testid="run-row"
            >
              <td className="run-pick" onClick={(e) => e.stopPropagation()}>
                <input
                  type="checkbox"
                  aria-label={`pick ${r.path} to compare`}
                  checked={picked.includes(r.path)}
                  onChange={(e) => pick(r.path, e.target.checked)}
                  data-testid="run-pick"
                />
              </td>
              <td className="mono">
                {r.live && <span className="live-dot" title="live" />} {shownPath(r)}
              </td>
              <td>{r.format}</td>
              <td>
                {[r.agent, r.settings?.model ?? r.model].filter(Boolean).join(' / ') || (
                  <span
                    className="muted small"
                    title="the run's folder names no agent or model (e.g. folders renamed by people)"
                  >
                    not recorded
                  </span>
                )}{' '}
                {r.settings && <SettingsChips settings={r.settings} />}
              </td>
              <td>{r.startedAt && <StartedAt at={r.startedAt} source={r.startedAtSource} />}</td>
              <td>
                {r.finished}/{r.tasks}
                {r.live ? (
                  <span className="muted small"> {r.paused ? 'paused' : 'running'}</span>
                ) : r.stopped ? (
                  <span className="muted small"> stopped by a person</span>
                ) : null}
              </td>
              <td>
                {r.error ? (
                  <span className="error" title={r.error}>
                    unreadable: {r.error.slice(0, 80)}
                  </span>
                ) : (
                  <>
                    {pct(r.successRate)}
                    {r.gradedBy === 'judge' ? ' (judge)' : ''}
                    <RunInterval runId={r.runId} rate={r.successRate} version={r.finished} />
                  </>
                )}
                <RunSafetyFigure safety={r.safety} tasks={r.tasks} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

type SortKey = 'key' | 'app' | 'state' | 'score' | 'steps' | 'difficulty';

function RunTable({ runId, route }: { runId: string; route: Route }) {
  const tick = useRunEvents((e) => e.runId === runId || runId.endsWith(e.runId));
  const { data: detail, error } = useCall('runs.get', { runId }, tick);
  const q = route.query;
  const filters = {
    app: q.get('app') ?? '',
    state: q.get('state') ?? '',
    difficulty: q.get('difficulty') ?? '',
    tag: q.get('tag') ?? '',
    score: q.get('score') ?? '',
    judge: q.get('judge') ?? '',
    human: q.get('human') ?? '',
    disagree: q.get('disagree') ?? '',
    text: q.get('q') ?? '',
  };
  const sort = (q.get('sort') ?? 'key') as SortKey;
  const setQuery = (patch: Record<string, string | undefined>) => {
    const next: Record<string, string | undefined> = Object.fromEntries(q.entries());
    navigate('runs', [runId], { ...next, ...patch }, true);
  };
  // A finished attempt's cause as the live event tells it, before the run table is read again.
  const [liveCauses, setLiveCauses] = useState<ReadonlyMap<string, AttemptCause>>(new Map());
  useEffect(
    () =>
      onRunEvent((e) => {
        if (
          (e.kind !== 'task.finished' && e.kind !== 'task.started') ||
          !(e.runId === runId || runId.endsWith(e.runId))
        )
          return;
        setLiveCauses((m) => {
          const next = new Map(m);
          if (e.kind === 'task.finished' && e.cause) next.set(e.taskKey, e.cause);
          else next.delete(e.taskKey);
          return next;
        });
      }),
    [runId],
  );

  const rows = useMemo(() => {
    const list = (detail?.tasks ?? []).filter((t) => {
      if (filters.app && t.app !== filters.app) return false;
      if (filters.state && shownState(t) !== filters.state) return false;
      if (filters.difficulty && t.difficulty !== filters.difficulty) return false;
      if (filters.tag && !(t.tags ?? []).includes(filters.tag)) return false;
      if (filters.score === 'pass' && !(t.score === 1)) return false;
      if (filters.score === 'fail' && !(t.score === 0)) return false;
      if (filters.score === 'partial' && !(t.score !== undefined && t.score > 0 && t.score < 1)) return false;
      if (filters.judge && t.judge !== filters.judge) return false;
      if (filters.human && t.human !== filters.human) return false;
      if (filters.disagree && !disagrees(t)) return false;
      if (
        filters.text &&
        !`${t.key} ${t.instruction ?? ''}`.toLowerCase().includes(filters.text.toLowerCase())
      )
        return false;
      return true;
    });
    const by: Record<SortKey, (t: RunTaskItem) => string | number> = {
      key: (t) => t.key,
      app: (t) => t.app ?? '',
      state: (t) => shownState(t),
      score: (t) => -(t.score ?? -1),
      steps: (t) => -t.steps,
      difficulty: (t) => ['easy', 'medium', 'hard'].indexOf(t.difficulty ?? ''),
    };
    const f = by[sort] ?? by.key;
    return [...list].sort((a, b) => (f(a) < f(b) ? -1 : f(a) > f(b) ? 1 : 0));
  }, [
    detail,
    filters.app,
    filters.state,
    filters.difficulty,
    filters.tag,
    filters.score,
    filters.judge,
    filters.human,
    filters.disagree,
    filters.text,
    sort,
  ]);

  if (error) return <LoadError error={error} back={[{ label: 'all runs', view: 'runs' }]} />;
  if (!detail) return <div className="muted pad">Reading run…</div>;
  const all = detail.tasks;
  // UFO sessions are graded by their EvaluationAgent: the rate is then the judge's.
  const by = detail.run.gradedBy ?? 'rule';
  const graded = gradedCount(all, by);
  const success = successRateOf(all, by);
  const options = (f: (t: RunTaskItem) => string | undefined) =>
    [...new Set(all.map(f).filter(Boolean) as string[])].sort();
  const states = options((t) => shownState(t));
  return (
    <div className="run-table">
      <div className="run-head">
        <button onClick={() => navigate('runs')}>← Runs</button>
        <h2 className="mono">{shownPath(detail.run)}</h2>
        {detail.run.settings && <SettingsChips settings={detail.run.settings} />}
        {detail.run.screen && <ScreenChip screen={detail.run.screen} />}
        {detail.run.startedAt && <StartedAt at={detail.run.startedAt} source={detail.run.startedAtSource} />}
        <div
          className="rate"
          data-testid="success-rate"
          title="over every task of the run, unfinished and skipped included"
        >
          {by === 'judge' ? 'judge success' : 'success'} {pct(success)}{' '}
          <span className="muted">
            ({graded} {by === 'judge' ? 'judged' : 'graded'} of {all.length})
          </span>
          <RunSafetyFigure safety={detail.run.safety} tasks={all.length} completed />
        </div>
        {/* What happened to the run, apart from its score. */}
        <span className="run-status" data-testid="run-status">
          {detail.run.live
            ? detail.run.paused
              ? 'paused'
              : `running · ${detail.run.finished} of ${all.length} finished`
            : detail.run.stopped
              ? `stopped by a person (${detail.run.stopped} task${detail.run.stopped > 1 ? 's' : ''} cancelled)`
              : 'finished'}
        </span>
        {detail.run.live && <RunControls runId={runId} paused={detail.run.paused} keys />}
        <div className="state-bar">
          {states.map((s) => (
            <Badge
              key={s}
              kind={
                s === 'success' || s === 'finished'
                  ? 'easy'
                  : s === 'skipped'
                    ? 'tag'
                    : s === 'aborted'
                      ? 'medium'
                      : 'hard'
              }
            >
              {s} {all.filter((t) => shownState(t) === s).length}
            </Badge>
          ))}
        </div>
      </div>
      {detail.problems.length > 0 && <ProblemList problems={detail.problems} limit={20} />}
      {typeof detail.manifest?.queue === 'string' && <QueuePanel runId={runId} />}
      <BreakdownPanel tasks={all} gradedBy={by} />
      <RunStatsPanel runId={runId} version={detail.run.finished} />
      <div className="filters">
        <input
          placeholder="search"
          value={filters.text}
          onChange={(e) => setQuery({ q: e.target.value })}
          aria-label="search tasks"
        />
        <Select
          label="app"
          value={filters.app}
          options={options((t) => t.app)}
          onChange={(v) => setQuery({ app: v })}
        />
        <Select
          label="state"
          value={filters.state}
          options={states}
          onChange={(v) => setQuery({ state: v })}
        />
        <Select
          label="difficulty"
          value={filters.difficulty}
          options={['easy', 'medium', 'hard']}
          onChange={(v) => setQuery({ difficulty: v })}
        />
        <Select
          label="tag"
          value={filters.tag}
          options={[...new Set(all.flatMap((t) => t.tags ?? []))].sort()}
          onChange={(v) => setQuery({ tag: v })}
        />
        <Select
          label="score"
          value={filters.score}
          options={['pass', 'fail', 'partial']}
          onChange={(v) => setQuery({ score: v })}
        />
        <Select
          label="judge"
          value={filters.judge}
          options={['yes', 'no', 'unsure']}
          onChange={(v) => setQuery({ judge: v })}
        />
        <Select
          label="human"
          value={filters.human}
          options={['yes', 'no', 'unsure']}
          onChange={(v) => setQuery({ human: v })}
        />
        <label>
          <input
            type="checkbox"
            checked={!!filters.disagree}
            onChange={(e) => setQuery({ disagree: e.target.checked ? '1' : undefined })}
          />{' '}
          disagreements
        </label>
        <Select
          label="sort"
          value={sort}
          options={['key', 'app', 'state', 'score', 'steps', 'difficulty']}
          onChange={(v) => setQuery({ sort: v })}
        />
        <span className="muted" data-testid="shown-count">
          {rows.length} of {all.length}
        </span>
      </div>
      <div className="task-grid-head task-grid">
        <span>task</span>
        <span>app</span>
        <span>state</span>
        <span>score</span>
        <span>judge</span>
        <span>human</span>
        <span>steps</span>
        <span>instruction</span>
      </div>
      <VirtualList
        items={rows}
        rowHeight={28}
        height="calc(100vh - 210px)"
        testId="task-table"
        render={(t) => (
          <button
            className={`task-grid row-btn ${disagrees(t) ? 'disagree' : ''}`}
            onClick={() => navigate('runs', [runId], { task: t.key })}
            data-testid="run-task-row"
          >
            <span className="mono ellipsis">
              {t.key}
              <TaskSafetyChip safety={t.safety} />
            </span>
            <span>{t.app}</span>
            <span>
              <span
                className={`state-${shownState(t)}`}
                data-testid="task-state"
                title={
                  [
                    t.outcome ? `how the harness's episode ended (${t.state}); the score is apart` : '',
                    t.startedAt ? `started ${t.startedAt}${t.timeSource ? ` (${t.timeSource})` : ''}` : '',
                  ]
                    .filter(Boolean)
                    .join('\n') || undefined
                }
              >
                {shownState(t)}
              </span>
              <TaskCause cause={liveCauses.get(t.key) ?? t.cause} state={shownState(t)} />
            </span>
            <span className={t.score === 1 ? 'ok' : t.score === 0 ? 'bad' : ''}>{formatScore(t.score)}</span>
            <span>{t.judge ?? ''}</span>
            <span>{t.human ?? ''}</span>
            <span>{t.steps}</span>
            <span className="ellipsis">
              {t.error ? <span className="error">{t.error}</span> : t.instruction}
            </span>
          </button>
        )}
      />
    </div>
  );
}

/** Why a finished attempt ended (success, agent failure, step limit, agent / env / grading error), when the state does not say it already. */
function TaskCause({ cause, state }: { cause?: AttemptCause; state: string }) {
  if (!cause || causeLabels[cause] === state) return null;
  return (
    <span className="muted" data-testid="task-cause" title={`cause: ${causeLabels[cause]}`}>
      {' · '}
      {causeLabels[cause]}
    </span>
  );
}

/** Rule score, judge and people do not say the same thing. */
export function disagrees(t: RunTaskItem): boolean {
  const votes = [
    t.score === undefined ? undefined : t.score >= 1 ? 'yes' : t.score <= 0 ? 'no' : undefined,
    t.judge,
    t.human,
  ].filter((v) => v === 'yes' || v === 'no');
  return new Set(votes).size > 1;
}

function Select({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: string;
  options: string[];
  onChange: (v: string | undefined) => void;
}) {
  return (
    <select aria-label={label} value={value} onChange={(e) => onChange(e.target.value || undefined)}>
      <option value="">{label}: all</option>
      {options.map((o) => (
        <option key={o} value={o}>
          {o}
        </option>
      ))}
    </select>
  );
}
