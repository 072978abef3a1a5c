// The Chrome DevTools HTTP endpoints every kind's browser answers (`/json/new`, `/json/list`), spoken to the
// endpoint an environment gives (env.browserEndpoint()); never to an address of its own.

/** Opens `url` in a new tab of the browser at `endpoint`. */
export async function openDevToolsTab(endpoint: string, url: string, signal?: AbortSignal): Promise<void> {
  const base = endpoint.replace(/\/+$/, '');
  const timeout = AbortSignal.timeout(15_000);
  const res = await fetch(`${base}/json/new?${encodeURIComponent(url)}`, {
    method: 'PUT',
    signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
  });
  await res.body?.cancel();
  if (!res.ok) throw new Error(`the browser at ${base} would not open ${url}: HTTP ${res.status}`);
}

export interface DevToolsPage {
  id: string;
  type: string;
  url: string;
  title: string;
}

/** The browser's targets (`GET /json/list`). */
export async function listDevToolsPages(endpoint: string, signal?: AbortSignal): Promise<DevToolsPage[]> {
  const base = endpoint.replace(/\/+$/, '');
  const timeout = AbortSignal.timeout(15_000);
  const res = await fetch(`${base}/json/list`, {
    signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
  });
  if (!res.ok) throw new Error(`the browser at ${base} would not list its tabs: HTTP ${res.status}`);
  const pages = (await res.json()) as unknown;
  if (!Array.isArray(pages))
    throw new Error(`the browser at ${base} answered /json/list with something other than a list`);
  return pages.filter(
    (p): p is DevToolsPage =>
      !!p &&
      typeof p === 'object' &&
      typeof (p as DevToolsPage).id === 'string' &&
      typeof (p as DevToolsPage).url === 'string',
  );
}

/** Closes the tab `id` (`GET /json/close/<id>`). */
export async function closeDevToolsPage(endpoint: string, id: string, signal?: AbortSignal): Promise<void> {
  const base = endpoint.replace(/\/+$/, '');
  const timeout = AbortSignal.timeout(15_000);
  const res = await fetch(`${base}/json/close/${encodeURIComponent(id)}`, {
    signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
  });
  await res.body?.cancel();
  if (!res.ok) throw new Error(`the browser at ${base} would not close tab ${id}: HTTP ${res.status}`);
}

/**
 * Waits until the browser at `endpoint` answers `GET /json/version` (OSWorld's steps retry their DevTools
 * connection for up to a minute: a browser a `launch` step just started needs a moment). Throws after `ms`.
 */
export async function waitForDevTools(endpoint: string, signal?: AbortSignal, ms = 60_000): Promise<void> {
  const base = endpoint.replace(/\/+$/, '');
  const end = Date.now() + ms;
  let last: string;
  for (;;) {
    try {
      const res = await fetch(`${base}/json/version`, {
        signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(5000)]) : AbortSignal.timeout(5000),
      });
      await res.body?.cancel();
      if (res.ok) return;
      last = `HTTP ${res.status}`;
    } catch (e) {
      if (signal?.aborted) throw e;
      last = (e as { cause?: { code?: string } }).cause?.code ?? (e as Error).message;
    }
    if (Date.now() > end) throw new Error(`no browser answered at ${base} within ${ms / 1000} s (${last})`);
    await new Promise((r) => setTimeout(r, 300));
  }
}
