// The Chrome DevTools HTTP endpoints every kind's browser answers (`/json/new`, `/json/list`), spoken to the
// endpoint an environment gives (env.browserEndpoint()); never to an address of its own.

/** Opens `url` in a new tab of the browser at `endpoint`. */
export async function openDevToolsTab(endpoint: string, url: string, signal?: AbortSignal): Promise<void> {
  const base = endpoint.replace(/\/+$/, '');
  const timeout = AbortSignal.timeout(15_000);
  const res = await fetch(`${base}/json/new?${encodeURIComponent(url)}`, { method: 'PUT', signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
  await res.body?.cancel();
  if (!res.ok) throw new Error(`the browser at ${base} would not open ${url}: HTTP ${res.status}`);
}
