// Picks the transport at start: the preload's IPC bridge in Electron, HTTP + WebSocket in a browser, the exported
// data of a static site (`proctor export html`).
// Both give the same ProctorClient; nothing else in the UI knows which one it has.
import type { ApiEvents, EventName, MethodName, Params, ProctorClient, Result } from '../../shared/api';
import { SITE_GLOBAL, type SiteIndex } from '../../shared/static-site';
import { staticClient } from './static-transport';

declare global {
  interface Window {
    proctor?: ProctorClient;
    [SITE_GLOBAL]?: SiteIndex;
  }
}

// Over HTTP the server authenticates the page by an HttpOnly cookie (it traded the printed ?token= for it on the
// first load), so no token is ever in a URL, in storage or in reach of the page's scripts.
function httpClient(): ProctorClient {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const handlers = new Map<EventName, Set<(payload: unknown) => void>>();
  let socket: WebSocket | undefined;
  let retry = 500;
  const connect = () => {
    const wsUrl = new URL('/events', location.href);
    wsUrl.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
    socket = new WebSocket(wsUrl);
    socket.onopen = () => (retry = 500);
    socket.onmessage = (m) => {
      const msg = JSON.parse(String(m.data)) as { event: EventName; payload: unknown };
      handlers.get(msg.event)?.forEach((h) => h(msg.payload));
    };
    socket.onclose = () => {
      socket = undefined;
      setTimeout(connect, (retry = Math.min(retry * 2, 8000)));
    };
  };
  return {
    async call<M extends MethodName>(method: M, params: Params<M>): Promise<Result<M>> {
      const res = await fetch('/api/call', {
        method: 'POST',
        headers,
        credentials: 'same-origin',
        body: JSON.stringify({ method, params }),
      });
      const body = (await res.json()) as { result?: Result<M>; error?: { message: string } };
      // A folder with a team: a call without a person's cookie goes to the login page.
      if (res.status === 401 && body.error?.message.includes('/login')) location.assign('/login');
      if (!res.ok || body.error) throw new Error(body.error?.message ?? `HTTP ${res.status}`);
      return body.result as Result<M>;
    },
    subscribe<E extends EventName>(event: E, handler: (payload: ApiEvents[E]) => void): () => void {
      if (!socket) connect();
      let set = handlers.get(event);
      if (!set) handlers.set(event, (set = new Set()));
      const h = handler as (payload: unknown) => void;
      set.add(h);
      return () => set.delete(h);
    },
    fileUrl(path: string): string {
      return `/files/${path.split('/').map(encodeURIComponent).join('/')}`;
    },
  };
}

// A `proctor export html` site (data/site.js set the run list): read-only, answered from the exported files.
const site = window[SITE_GLOBAL];
export const readOnlySite = !window.proctor && !!site;
export const client: ProctorClient = window.proctor ?? (site ? staticClient(site) : httpClient());
