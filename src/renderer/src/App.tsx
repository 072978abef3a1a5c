// The workbench shell: the Tasks and Runs tabs, and the side-by-side view of runs. A link without a view opens
// on the served folder's runs when it holds any (the folder a run or the demo wrote), else on its tasks. In every
// view `y` copies the link of what is on screen.
import { useEffect } from 'react';
import { useCall } from './data/use-call';
import { navigate, routeHref, useRoute } from './route';
import { TaskBrowser } from './views/TaskBrowser';
import { RunsView } from './views/RunsView';
import { CompareView } from './views/Compare';
import { Toaster } from './components/Toast';
import { useCopyLinkKey } from './copy-link';
import { LabelsView } from './views/LabelsView';

/** The first screen for a link that names no view. */
function useFirstView(view: string): void {
  const { data: runs, error, loading } = useCall('runs.list', view ? undefined : {});
  useEffect(() => {
    if (view || loading) return;
    if (runs) navigate(runs.length ? 'runs' : 'tasks', [], {}, true);
    else if (error) navigate('tasks', [], {}, true);
  }, [view, runs, error, loading]);
}

/** With a team: who is logged in, and a way out (a form post, so no other page can log one out). */
function WhoAmI() {
  const { data: me } = useCall('labels.me', {});
  if (!me?.team) return null;
  return (
    <form method="post" action="/logout" className="whoami small">
      {me.person} ({me.role}) <button type="submit">log out</button>
    </form>
  );
}

export function App() {
  const route = useRoute();
  const { data: info, error } = useCall('app.info', {});
  useFirstView(route.view);
  useCopyLinkKey();
  return (
    <div className="app">
      <header className="topbar">
        <span className="brand">Proctor</span>
        <nav>
          <a
            href={routeHref('runs')}
            className={route.view === 'runs' || route.view === 'compare' ? 'active' : ''}
          >
            Runs
          </a>
          <a href={routeHref('tasks')} className={route.view === 'tasks' ? 'active' : ''}>
            Tasks
          </a>
          <a href={routeHref('labels')} className={route.view === 'labels' ? 'active' : ''}>
            Labels
          </a>
        </nav>
        {info?.transport === 'http' && <WhoAmI />}
        <span className="root" title="served folder">
          {info
            ? `${info.root} · ${info.transport} · v${info.version}`
            : error
              ? `engine unreachable: ${error}`
              : '…'}
        </span>
      </header>
      <main className="content">
        {route.view === 'tasks' ? (
          <TaskBrowser route={route} />
        ) : route.view === 'compare' ? (
          <CompareView route={route} />
        ) : route.view === 'labels' ? (
          <LabelsView />
        ) : route.view ? (
          <RunsView route={route} />
        ) : (
          <div className="muted pad">Opening…</div>
        )}
      </main>
      <Toaster />
    </div>
  );
}
