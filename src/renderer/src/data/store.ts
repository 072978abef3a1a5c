// The renderer's one store of engine answers: each contract call (method + params) kept once, shared by every view
// that asks for it, asked again on each mount or refresh while the last answer stays on screen.
import type { MethodName, Params, Result } from '../../../shared/api';
import { client } from '../transport';

export interface CallState<T> {
  /** The last answer (kept while the next one is on its way). */
  data?: T;
  /** The message of the last failure, cleared by the next answer. */
  error?: string;
  loading: boolean;
}

interface Entry extends CallState<unknown> {
  /** The number of the request in flight; an older answer arriving late is dropped. */
  gen: number;
}

const MAX_ENTRIES = 200;

/**
 * Methods asked at most so many at a time (the rest wait their turn): a list of hundreds of runs must not ask the
 * engine for every run's statistics at once.
 */
const AT_ONCE: Partial<Record<MethodName, number>> = { 'runs.stats': 2 };
const running = new Map<MethodName, number>();
const queued = new Map<MethodName, (() => void)[]>();

function limited<T>(method: MethodName, ask: () => Promise<T>): Promise<T> {
  const max = AT_ONCE[method];
  if (!max) return ask();
  return new Promise<T>((ok, fail) => {
    const start = () => {
      running.set(method, (running.get(method) ?? 0) + 1);
      ask()
        .then(ok, fail)
        .finally(() => {
          running.set(method, running.get(method)! - 1);
          queued.get(method)?.shift()?.();
        });
    };
    if ((running.get(method) ?? 0) < max) start();
    else queued.set(method, [...(queued.get(method) ?? []), start]);
  });
}
const entries = new Map<string, Entry>();
const listeners = new Map<string, Set<() => void>>();

/** The key of one call: the method and its params (object keys sorted, so the same params give the same key). */
export function callKey(method: MethodName, params: unknown): string {
  return `${method} ${JSON.stringify(params, (_k, v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v))}`;
}

export const IDLE: CallState<never> = Object.freeze({ loading: false });

export function snapshot(key: string): CallState<unknown> {
  return entries.get(key) ?? IDLE;
}

export function watch(key: string, onChange: () => void): () => void {
  let set = listeners.get(key);
  if (!set) listeners.set(key, (set = new Set()));
  set.add(onChange);
  return () => {
    set.delete(onChange);
    if (!set.size) listeners.delete(key);
  };
}

function put(key: string, entry: Entry): void {
  entries.delete(key); // re-inserted last: the map's order is the order of use
  entries.set(key, entry);
  listeners.get(key)?.forEach((l) => l());
  for (const k of entries.keys()) {
    if (entries.size <= MAX_ENTRIES) break;
    if (!listeners.has(k)) entries.delete(k);
  }
}

/**
 * Asks the engine and keeps the answer under the call's key. The same call already on its way is not asked twice,
 * unless `force` (something changed since it was asked); the latest request's answer wins.
 */
export function fetchCall<M extends MethodName>(method: M, params: Params<M>, force = false): Promise<void> {
  const key = callKey(method, params);
  const old = entries.get(key);
  if (old?.loading && !force) return Promise.resolve();
  const gen = (old?.gen ?? 0) + 1;
  put(key, { ...(old ?? {}), loading: true, gen });
  const current = () => entries.get(key)?.gen === gen;
  return limited(method, () => client.call(method, params)).then(
    (data: Result<M>) => {
      if (current()) put(key, { data, loading: false, gen });
    },
    (e: unknown) => {
      if (current())
        put(key, {
          ...entries.get(key)!,
          error: e instanceof Error ? e.message : String(e),
          loading: false,
          gen,
        });
    },
  );
}

/** Keeps an answer the engine gave another way (a change that returns the new state) as the answer of this call. */
export function putAnswer<M extends MethodName>(method: M, params: Params<M>, data: Result<M>): void {
  const key = callKey(method, params);
  put(key, { data, loading: false, gen: (entries.get(key)?.gen ?? 0) + 1 });
}

/** Asks again for every kept call of these methods that a view shows now (after a change the engine made). */
export function refetch(...methods: MethodName[]): void {
  for (const key of [...entries.keys()]) {
    const method = key.slice(0, key.indexOf(' ')) as MethodName;
    if (!methods.includes(method) || !listeners.has(key)) continue;
    const params = JSON.parse(key.slice(key.indexOf(' ') + 1)) as Params<MethodName>;
    void fetchCall(method, params, true);
  }
}

/** Forgets every answer (between tests; on a change of the person signed in). */
export function clearStore(): void {
  entries.clear();
}
