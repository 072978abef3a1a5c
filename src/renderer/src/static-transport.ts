// The read-only transport of a `proctor export html` site: no engine, no network. The read methods are answered
// from the data files the exporter wrote (loaded by <script> tags, as file:// forbids fetching local JSON: the run
// list at start, a run's or a task's file when first asked for); the methods that write are refused, and the page
// is marked read-only so the UI hides them. Files are the site's own copies below files/. Runs are compared from
// the exported trajectories (by action; screens are compared by the engine only); a reader has no labelling work.
import type { ApiEvents, EventName, MethodName, Params, ProctorClient, Result } from '../../shared/api';
import { firstActionDivergence } from '../../shared/divergence';
import {
  runDataKey,
  SITE_LOAD,
  siteFileUrl,
  taskDataKey,
  taskDataPath,
  type SiteIndex,
  type SiteRun,
  type SiteRunData,
  type SiteTaskData,
} from '../../shared/static-site';

type Loader = (key: string, value: unknown) => void;

/** Loads a data file once by script injection; resolves with what it hands to the loader. */
function scriptLoader(): (key: string, src: string) => Promise<unknown> {
  const loaded = new Map<string, unknown>();
  const waiting = new Map<string, (value: unknown) => void>();
  const pending = new Map<string, Promise<unknown>>();
  (window as unknown as Record<string, Loader>)[SITE_LOAD] = (key, value) => {
    loaded.set(key, value);
    waiting.get(key)?.(value);
  };
  return (key, src) => {
    if (loaded.has(key)) return Promise.resolve(loaded.get(key));
    let p = pending.get(key);
    if (!p) {
      p = new Promise((ok, fail) => {
        waiting.set(key, ok);
        const s = document.createElement('script');
        s.src = src;
        s.onload = () =>
          loaded.has(key)
            ? ok(loaded.get(key))
            : fail(new Error(`${src} did not hold ${key}: the export is incomplete`));
        s.onerror = () => {
          pending.delete(key);
          fail(new Error(`cannot load ${src} from this export`));
        };
        document.head.appendChild(s);
      });
      pending.set(key, p);
    }
    return p;
  };
}

/**
 * The key a run keeps a compared task under, as the engine matches it: the key itself, a repeated run's first
 * attempt (`key#1`), or an attempt's task in a run of single attempts.
 */
function keyIn(keys: readonly string[], requested: string): string {
  if (keys.includes(requested)) return requested;
  const attempt = /^(.*)#\d+$/.exec(requested);
  if (attempt && keys.includes(attempt[1])) return attempt[1];
  const first = `${attempt ? attempt[1] : requested}#1`;
  return keys.includes(first) ? first : requested;
}

/** What a read-only site answers a method that writes or needs the engine. */
const readOnly = (method: string) =>
  new Error(`this is a read-only export: ${method} needs \`proctor serve\` on the run folders`);

export function staticClient(site: SiteIndex): ProctorClient {
  document.documentElement.classList.add('read-only');
  const load = scriptLoader();
  const runOf = (runId: string): { i: number; run: SiteRun } => {
    const i =
      site.index.findIndex((r) => r.runId === runId) >= 0
        ? site.index.findIndex((r) => r.runId === runId)
        : site.index.findIndex((r) => r.path === runId);
    if (i < 0) throw new Error(`no run '${runId}' in this export`);
    return { i, run: site.index[i] };
  };
  const runData = async (runId: string) => {
    const { i, run } = runOf(runId);
    return (await load(runDataKey(i), run.data)) as SiteRunData;
  };
  const taskData = async (runId: string, taskKey: string) => {
    const { i, run } = runOf(runId);
    const j = run.tasks.indexOf(taskKey);
    if (j < 0) throw new Error(`no task '${taskKey}' in run '${runId}' of this export`);
    return (await load(taskDataKey(i, j), taskDataPath(i, j))) as SiteTaskData;
  };
  const answers: { [M in MethodName]?: (p: Params<M>) => Promise<Result<M>> } = {
    'app.info': async () => ({
      name: 'proctor',
      version: site.proctorVersion,
      root: `${site.title} · exported ${site.createdAt.slice(0, 10)}`,
      transport: 'static',
    }),
    'runs.list': async ({ withTask }) =>
      withTask === undefined ? site.runs : site.runs.filter((_, i) => site.index[i].tasks.includes(withTask)),
    'runs.get': async ({ runId }) => (await runData(runId)).detail,
    'runs.stats': async ({ runId, includeErrors }) => {
      const d = await runData(runId);
      const s = includeErrors ? d.statsWithErrors : d.stats;
      if (!s) throw new Error(`no statistics for run '${runId}' in this export`);
      return s;
    },
    'runs.task': async ({ runId, taskKey }) => (await taskData(runId, taskKey)).trajectory,
    'runs.compare': async ({ runIds, taskKey }) => {
      if (new Set(runIds).size !== runIds.length)
        throw new Error(`runIds: a run is named twice (${runIds.join(', ')})`);
      const runs = await Promise.all(
        runIds.map(async (runId) => {
          const { i, run } = runOf(runId);
          const trajectory = (await taskData(runId, keyIn(run.tasks, taskKey))).trajectory;
          const listed = site.runs[i];
          return { ...trajectory, run: { path: run.path, agent: listed?.agent, model: listed?.model } };
        }),
      );
      return { taskKey, runs, actionDivergence: firstActionDivergence(runs.map((r) => r.steps)) };
    },
    'runs.queue': async () => null,
    'runs.pending': async () => [],
    'demos.get': async ({ runId, taskKey }) =>
      (await taskData(runId, taskKey)).demo ?? { runId, taskKey, byPerson: false, reviews: [] },
    'labels.me': async () => ({ person: 'reader', role: 'reviewer', team: false }),
    'labels.queue': async () => ({ person: 'reader', items: [], done: 0, total: 0 }),
    'tasks.open': async ({ path }) => ({ path, tasks: [], problems: [] }),
  };
  return {
    async call<M extends MethodName>(method: M, params: Params<M>): Promise<Result<M>> {
      const answer = answers[method] as ((p: Params<M>) => Promise<Result<M>>) | undefined;
      if (!answer) throw readOnly(method);
      return answer(params);
    },
    subscribe<E extends EventName>(_event: E, _handler: (payload: ApiEvents[E]) => void): () => void {
      return () => undefined; // an export does not change
    },
    fileUrl: siteFileUrl,
  };
}
