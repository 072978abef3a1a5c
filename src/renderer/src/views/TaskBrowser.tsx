// The task browser: a task folder's tasks grouped by app, with tags, difficulty, validation problems (each naming
// its file and place; a task file that fails its schema counts as invalid too) and the instruction; a switch
// between a task and its counterpart. Run folders are not read here: they are the Runs tab's.
import { useEffect, useMemo, useState } from 'react';
import type { TaskSummary } from '../../../shared/api';
import type { Problem } from '../../../shared/task';
import { TaskReviewPanel } from '../components/TaskReviewPanel';
import { useCall } from '../data/use-call';
import { navigate, type Route } from '../route';
import { Badge, ProblemList } from '../components/Badges';

export function TaskBrowser({ route }: { route: Route }) {
  const folder = route.query.get('folder') ?? '';
  const selected = route.query.get('task') ?? undefined;
  const [draft, setDraft] = useState(folder);
  const [filter, setFilter] = useState('');
  useEffect(() => setDraft(folder), [folder]);
  const { data: view, error, loading } = useCall('tasks.open', { path: folder });

  const groups = useMemo(() => {
    const byApp = new Map<string, TaskSummary[]>();
    const f = filter.toLowerCase();
    for (const t of view?.tasks ?? []) {
      if (f && !`${t.id} ${t.app} ${t.instruction} ${t.tags.join(' ')}`.toLowerCase().includes(f)) continue;
      const list = byApp.get(t.app) ?? [];
      list.push(t);
      byApp.set(t.app, list);
    }
    return [...byApp].sort(([a], [b]) => a.localeCompare(b));
  }, [view, filter]);

  const byId = useMemo(() => new Map((view?.tasks ?? []).map((t) => [t.id, t])), [view]);
  const current = view?.tasks.find((t) => t.path === selected);
  const open = (t: TaskSummary) => navigate('tasks', [], { folder, task: t.path });

  return (
    <div className="split">
      <aside className="pane list-pane">
        <form
          className="toolbar"
          onSubmit={(e) => {
            e.preventDefault();
            navigate('tasks', [], { folder: draft });
          }}
        >
          <input
            aria-label="task folder"
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            placeholder="folder below the served root"
          />
          <button type="submit">Open</button>
        </form>
        <input
          className="filter"
          aria-label="filter tasks"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
          placeholder="filter: id, app, tag, words"
        />
        {loading && <div className="muted">Reading tasks…</div>}
        {error && !loading && <div className="error">{error}</div>}
        {view && (
          <div className="summary-line" data-testid="task-count">
            {view.tasks.length} tasks · {groups.length} apps ·{' '}
            {view.tasks.filter((t) => t.problems.some((p) => p.severity === 'error')).length +
              new Set(view.problems.filter((p) => p.severity === 'error').map((p) => p.file)).size}{' '}
            invalid ·{' '}
            {view.tasks.reduce((n, t) => n + t.problems.filter((p) => p.severity === 'warning').length, 0)}{' '}
            warnings
          </div>
        )}
        {view && view.problems.length > 0 && <ProblemList problems={view.problems} />}
        <div className="groups">
          {groups.map(([app, tasks]) => (
            <details
              key={app}
              open={groups.length <= 3 || tasks.some((t) => t.path === selected)}
              className="group"
            >
              <summary>
                <span className="app-name">{app}</span> <span className="muted">{tasks.length}</span>
              </summary>
              <ul>
                {tasks.map((t) => (
                  <li key={t.path} className={t.path === selected ? 'selected' : ''}>
                    <button
                      className="row"
                      onClick={() => open(t)}
                      data-testid="task-row"
                      title={t.instruction}
                    >
                      <span className="task-id">{t.id.slice(0, 8)}</span>
                      <span className="task-text">{t.instruction}</span>
                      <span className="badges">
                        {t.style && <Badge kind={t.style}>{t.style}</Badge>}
                        {t.interface && <Badge kind="iface">{t.interface}</Badge>}
                        {t.difficulty && <Badge kind={t.difficulty}>{t.difficulty}</Badge>}
                        {t.needsAccount.length > 0 && <Badge kind="account">account</Badge>}
                        <ProblemBadge problems={t.problems} />
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
            </details>
          ))}
        </div>
      </aside>
      <section className="pane detail-pane">
        {current ? (
          <TaskDetailView
            task={current}
            counterpart={current.counterpart ? byId.get(current.counterpart) : undefined}
            onOpen={open}
          />
        ) : (
          <div className="empty">
            {view?.tasks.length ? 'Pick a task on the left.' : 'No tasks in this folder.'}
          </div>
        )}
      </section>
    </div>
  );
}

function ProblemBadge({ problems }: { problems: Problem[] }) {
  const errors = problems.filter((p) => p.severity === 'error').length;
  const warnings = problems.length - errors;
  if (errors)
    return (
      <Badge kind="error">
        {errors} error{errors > 1 ? 's' : ''}
      </Badge>
    );
  if (warnings)
    return (
      <Badge kind="warning">
        {warnings} warning{warnings > 1 ? 's' : ''}
      </Badge>
    );
  return null;
}

function TaskDetailView({
  task,
  counterpart,
  onOpen,
}: {
  task: TaskSummary;
  counterpart?: TaskSummary;
  onOpen: (t: TaskSummary) => void;
}) {
  const { data: detail, error: detailError } = useCall('tasks.get', { path: task.path });
  const [showRaw, setShowRaw] = useState(false);
  return (
    <article className="task-detail" data-testid="task-detail">
      <header>
        <h2>
          {task.app} <span className="muted mono">{task.id}</span>
        </h2>
        <div className="badges">
          {task.style && <Badge kind={task.style}>{task.style}</Badge>}
          {task.interface && <Badge kind="iface">{task.interface}</Badge>}
          {task.difficulty && (
            <Badge kind={task.difficulty}>
              {task.difficulty} · {task.actionNumber} steps
            </Badge>
          )}
          {task.category && <Badge kind="tag">{task.category}</Badge>}
          {task.needsAccount.map((s) => (
            <Badge key={s} kind="account">
              needs {s}
            </Badge>
          ))}
          {task.needsProxy && <Badge kind="account">proxy</Badge>}
          <Badge kind="tag">{task.shape}</Badge>
        </div>
        {task.counterpart && (
          <div className="counterpart">
            {counterpart ? (
              <button data-testid="counterpart" onClick={() => onOpen(counterpart)}>
                Switch to the {counterpart.style ?? 'other'} counterpart →
              </button>
            ) : (
              <span className="warning">counterpart {task.counterpart} is not in this folder</span>
            )}
          </div>
        )}
      </header>
      {task.problems.length > 0 && <ProblemList problems={task.problems} />}
      <h3>Instruction</h3>
      <pre className="instruction" data-testid="instruction">
        {task.instruction}
      </pre>
      <div className="facts">
        <div>
          <h3>Setup</h3>
          <ol className="mono small">
            {task.setup.map((s) => (
              <li key={s.pointer}>{s.func}</li>
            ))}
          </ol>
        </div>
        <div>
          <h3>Grading {task.checks.length > 1 ? `(${task.conj})` : ''}</h3>
          <ul className="mono small">
            {task.infeasible && <li>infeasible: scores 1 only if the agent says FAIL</li>}
            {task.checks.map((c) => (
              <li key={c.pointer + c.metric}>
                {c.metric}
                {c.result ? ` ← ${c.result.type}` : ''}
                {c.expected ? ` vs ${c.expected.type}` : ''}
              </li>
            ))}
          </ul>
        </div>
        <div>
          <h3>Apps</h3>
          <div className="small">{task.relatedApps.join(', ')}</div>
          <h3>Source</h3>
          <ul className="small">
            {task.source.map((s) => (
              <li key={s} className="mono">
                {s}
              </li>
            ))}
          </ul>
        </div>
      </div>
      <button className="link" onClick={() => setShowRaw(!showRaw)}>
        {showRaw ? 'Hide' : 'Show'} task file ({task.path})
      </button>
      {showRaw && detail && <pre className="raw">{JSON.stringify(detail.raw, null, 2)}</pre>}
      {showRaw && !detail && detailError && <div className="error">{detailError}</div>}
      <TaskReviewPanel path={task.path} />
    </article>
  );
}
