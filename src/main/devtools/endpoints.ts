// The DevTools HTTP endpoints every kind's browser answers (`/json/version`, `/json/list`, `/json/new`,
// `/json/close`), spoken to the endpoint an environment gives (env.browserEndpoint()); never to an address of its own.
import { sleep } from '../sleep';

/** One target of `GET /json/list`. */
export interface DevToolsPage {
  id: string;
  type: string;
  url: string;
  title: string;
  webSocketDebuggerUrl?: string;
}

/** A page tab, with the endpoint of the browser it is in (what TabSession.attach connects to). */
export interface Tab extends DevToolsPage {
  endpoint: string;
}

const trim = (endpoint: string): string => endpoint.replace(/\/+$/, '');

function within(ms: number, signal?: AbortSignal): AbortSignal {
  const timeout = AbortSignal.timeout(ms);
  return signal ? AbortSignal.any([signal, timeout]) : timeout;
}

/** Opens `url` in a new tab of the browser at `endpoint` (`PUT /json/new`). */
export async function openDevToolsTab(endpoint: string, url: string, signal?: AbortSignal): Promise<void> {
  const base = trim(endpoint);
  const res = await fetch(`${base}/json/new?${encodeURIComponent(url)}`, {
    method: 'PUT',
    signal: within(15_000, signal),
  });
  await res.body?.cancel();
  if (!res.ok)
    throw new Error(
      `the browser at ${base} would not open ${url}: PUT /json/new answered HTTP ${res.status}`,
    );
}

/** The browser's targets (`GET /json/list`), in Chromium's most-recently-active order. */
export async function listDevToolsPages(endpoint: string, signal?: AbortSignal): Promise<DevToolsPage[]> {
  const base = trim(endpoint);
  const res = await fetch(`${base}/json/list`, { signal: within(15_000, signal) });
  if (!res.ok) {
    await res.body?.cancel();
    throw new Error(
      `the browser at ${base} would not list its tabs: GET /json/list answered HTTP ${res.status}`,
    );
  }
  const pages = (await res.json()) as unknown;
  if (!Array.isArray(pages))
    throw new Error(`the browser at ${base} answered /json/list with something other than a list`);
  return pages
    .filter(
      (p): p is DevToolsPage =>
        !!p &&
        typeof p === 'object' &&
        typeof (p as DevToolsPage).id === 'string' &&
        typeof (p as DevToolsPage).url === 'string',
    )
    .map((p) => ({ ...p, type: String(p.type ?? ''), title: String(p.title ?? '') }));
}

/** The browser's page tabs (not its DevTools windows), most recently active first. */
export async function listTabs(endpoint: string, signal?: AbortSignal): Promise<Tab[]> {
  const base = trim(endpoint);
  return (await listDevToolsPages(base, signal))
    .filter((t) => t.type === 'page' && !t.url.startsWith('devtools://'))
    .map((t) => ({ ...t, endpoint: base }));
}

/** Asks the browser to close the tab `id` (`GET /json/close/<id>`); the tab goes a moment later. */
export async function closeDevToolsPage(endpoint: string, id: string, signal?: AbortSignal): Promise<void> {
  const base = trim(endpoint);
  const res = await fetch(`${base}/json/close/${encodeURIComponent(id)}`, { signal: within(15_000, signal) });
  await res.body?.cancel();
  if (!res.ok) throw new Error(`the browser at ${base} would not close tab ${id}: HTTP ${res.status}`);
}

/**
 * Closes the tab `id` and waits (5 s at most) until it has left the browser's list: closing is asynchronous in
 * the browser, and a getter asked next (open_tabs_info) must never see a grader's own tab. Never throws.
 */
export async function closeTab(endpoint: string, id: string): Promise<void> {
  await closeDevToolsPage(endpoint, id).catch(() => undefined);
  for (const until = Date.now() + 5000; Date.now() < until; await sleep(100)) {
    const open = await listDevToolsPages(endpoint).catch(() => []);
    if (!open.some((p) => p.id === id)) return;
  }
}

/** True when a browser answers `GET /json/version` at `endpoint` within 2 s (rethrows when `signal` aborts). */
export async function devToolsAnswers(endpoint: string, signal?: AbortSignal): Promise<boolean> {
  try {
    const res = await fetch(`${trim(endpoint)}/json/version`, { signal: within(2_000, signal) });
    await res.body?.cancel();
    return res.ok;
  } catch (e) {
    if (signal?.aborted) throw e;
    return false;
  }
}

/**
 * Waits until the browser at `endpoint` answers `GET /json/version` (OSWorld's steps retry their DevTools
 * connection for up to a minute: a browser a `launch` step just started needs a moment). Throws after `ms`.
 */
export async function waitForDevTools(endpoint: string, signal?: AbortSignal, ms = 60_000): Promise<void> {
  const base = trim(endpoint);
  const end = Date.now() + ms;
  let last: string;
  for (;;) {
    try {
      const res = await fetch(`${base}/json/version`, { signal: within(5000, signal) });
      await res.body?.cancel();
      if (res.ok) return;
      last = `HTTP ${res.status}`;
    } catch (e) {
      if (signal?.aborted) throw e;
      last = (e as { cause?: { code?: string } }).cause?.code ?? (e as Error).message;
    }
    if (Date.now() > end) throw new Error(`no browser answered at ${base} within ${ms / 1000} s (${last})`);
    await sleep(300, signal);
  }
}
