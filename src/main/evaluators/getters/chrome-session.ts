// A Chrome DevTools Protocol session on one tab, for the getters that drive a page the way OSWorld's drive it
// through Playwright (open a tab, go to a URL, wait for it to load, click, type, print to PDF). It speaks only to
// the endpoint the Environment gives (env.browserEndpoint()); tabs it opens it closes again.
import WebSocket from 'ws';
import { closeDevToolsPage, listDevToolsPages } from '../../env/devtools';
import type { GradingContext } from '../getter';
import { listTabs, type Tab } from './cdp';
import { sleep } from '../../sleep';

/** The environment's DevTools endpoint, or an error naming the getter. */
export function browserEndpointOf(ctx: GradingContext, type: string): string {
  const endpoint = ctx.env.browserEndpoint();
  if (!endpoint)
    throw new Error(
      `getter '${type}' needs a browser, and the ${ctx.env.kind} environment has none (no DevTools endpoint)`,
    );
  return endpoint.replace(/\/+$/, '');
}

/** The active tab (the first page in Chromium's most-recently-active order), or undefined. */
export async function activeTab(ctx: GradingContext, type: string): Promise<Tab | undefined> {
  return (await listTabs(browserEndpointOf(ctx, type), ctx.signal))[0];
}

interface CdpEvent {
  method: string;
  params: Record<string, unknown>;
}

/** One WebSocket session on a tab: commands, events, and the helpers the page getters need. */
export class TabSession {
  private nextId = 1;
  private readonly pending = new Map<
    number,
    { resolve: (v: Record<string, unknown>) => void; reject: (e: Error) => void }
  >();
  private readonly listeners = new Set<(e: CdpEvent) => void>();
  private inflight = new Set<string>();
  private lastNetwork = Date.now();

  private constructor(
    private readonly ws: WebSocket,
    readonly tab: Tab,
  ) {
    ws.on('message', (raw) => {
      const msg = JSON.parse(raw.toString()) as {
        id?: number;
        result?: Record<string, unknown>;
        error?: { message: string };
        method?: string;
        params?: Record<string, unknown>;
      };
      if (msg.id !== undefined) {
        const p = this.pending.get(msg.id);
        this.pending.delete(msg.id);
        if (msg.error) p?.reject(new Error(msg.error.message));
        else p?.resolve(msg.result ?? {});
      } else if (msg.method) {
        this.track(msg.method, msg.params ?? {});
        for (const l of this.listeners) l({ method: msg.method, params: msg.params ?? {} });
      }
    });
    ws.on('close', () => {
      for (const p of this.pending.values()) p.reject(new Error(`the DevTools session on ${tab.url} closed`));
      this.pending.clear();
    });
  }

  static async attach(tab: Tab): Promise<TabSession> {
    if (!tab.webSocketDebuggerUrl)
      throw new Error(`tab ${tab.url} has no debugger URL (is DevTools attached to it?)`);
    const ws = new WebSocket(tab.webSocketDebuggerUrl, {
      perMessageDeflate: false,
      maxPayload: 512 * 1024 * 1024,
    });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    const s = new TabSession(ws, tab);
    await s.send('Page.enable');
    await s.send('Network.enable');
    return s;
  }

  /** Opens `url` (or about:blank) in a new tab of the environment's browser and attaches to it. */
  static async open(ctx: GradingContext, type: string, url = 'about:blank'): Promise<TabSession> {
    const endpoint = browserEndpointOf(ctx, type);
    const res = await fetch(`${endpoint}/json/new?${encodeURIComponent(url)}`, {
      method: 'PUT',
      signal: ctx.signal ?? AbortSignal.timeout(15_000),
    });
    if (!res.ok) throw new Error(`the browser would not open a tab for getter '${type}': HTTP ${res.status}`);
    const tab = (await res.json()) as Tab;
    try {
      const s = await TabSession.attach(tab);
      s.endpoint = endpoint;
      return s;
    } catch (e) {
      await closeDevToolsPage(endpoint, tab.id).catch(() => undefined);
      throw e;
    }
  }

  /** Set for tabs this session opened: close() closes them. */
  private endpoint?: string;
  /** For a tab in a browser context of its own: the browser connection that disposes of the context on close. */
  private browserWs?: WebSocket;

  /**
   * Opens a tab in a new browser context (no cookies, storage or logins of the user's profile) — what Playwright's
   * `browser.new_page()` gives over CDP — and attaches to it; close() disposes of the context.
   */
  static async openIsolated(ctx: GradingContext, type: string): Promise<TabSession> {
    const endpoint = browserEndpointOf(ctx, type);
    const res = await fetch(`${endpoint}/json/version`, {
      signal: ctx.signal ?? AbortSignal.timeout(15_000),
    });
    const version = (await res.json()) as { webSocketDebuggerUrl?: string };
    if (!version.webSocketDebuggerUrl)
      throw new Error(`the browser at ${endpoint} gives no browser debugger URL`);
    const ws = new WebSocket(version.webSocketDebuggerUrl, { perMessageDeflate: false });
    try {
      await new Promise<void>((resolve, reject) => {
        ws.once('open', () => resolve());
        ws.once('error', reject);
      });
      const call = rpc(ws);
      const { browserContextId } = await call('Target.createBrowserContext', { disposeOnDetach: true });
      const { targetId } = await call('Target.createTarget', { url: 'about:blank', browserContextId });
      let tab: Tab | undefined;
      for (const until = Date.now() + 10_000; !tab && Date.now() < until; await sleep(100)) {
        tab = (await listTabs(endpoint, ctx.signal)).find((t) => t.id === targetId);
      }
      if (!tab) throw new Error(`the browser did not list the tab it opened for getter '${type}'`);
      const s = await TabSession.attach(tab);
      s.browserWs = ws;
      return s;
    } catch (e) {
      ws.close();
      throw e;
    }
  }

  private track(method: string, params: Record<string, unknown>): void {
    const id = String(params.requestId ?? '');
    if (method === 'Network.requestWillBeSent') this.inflight.add(id);
    else if (method === 'Network.loadingFinished' || method === 'Network.loadingFailed')
      this.inflight.delete(id);
    else return;
    this.lastNetwork = Date.now();
  }

  send(
    method: string,
    params: Record<string, unknown> = {},
    timeoutMs = 60_000,
  ): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`${method} on ${this.tab.url} timed out after ${timeoutMs} ms`));
      }, timeoutMs);
      timer.unref();
      this.pending.set(id, {
        resolve: (v) => (clearTimeout(timer), resolve(v)),
        reject: (e) => (clearTimeout(timer), reject(e)),
      });
      this.ws.send(JSON.stringify({ id, method, params }));
    });
  }

  /** Waits for the first event `method` matching `accept`; undefined after `timeoutMs`. */
  waitEvent(
    method: string,
    timeoutMs: number,
    accept: (p: Record<string, unknown>) => boolean = () => true,
  ): Promise<Record<string, unknown> | undefined> {
    return new Promise((resolve) => {
      const listener = (e: CdpEvent) => {
        if (e.method !== method || !accept(e.params)) return;
        done(e.params);
      };
      const timer = setTimeout(() => done(undefined), timeoutMs);
      timer.unref(); // an event nobody waits for any more must not keep the process alive
      const done = (v: Record<string, unknown> | undefined) => {
        clearTimeout(timer);
        this.listeners.delete(listener);
        resolve(v);
      };
      this.listeners.add(listener);
    });
  }

  /** Evaluates an expression in the page (promises awaited) and returns its JSON value. */
  async evaluate(expression: string, timeoutMs = 30_000): Promise<unknown> {
    const reply = await this.send(
      'Runtime.evaluate',
      { expression, awaitPromise: true, returnByValue: true },
      timeoutMs,
    );
    const details = reply.exceptionDetails as
      { text?: string; exception?: { description?: string } } | undefined;
    if (details) throw new Error(details.exception?.description ?? details.text ?? 'exception');
    return (reply.result as { value?: unknown } | undefined)?.value;
  }

  async url(): Promise<string> {
    return String(await this.evaluate('location.href'));
  }

  /** Waits until the document's readyState is at least `state` ('interactive' = DOMContentLoaded, 'complete' = load). */
  async waitReady(state: 'interactive' | 'complete', timeoutMs = 30_000): Promise<boolean> {
    for (const until = Date.now() + timeoutMs; Date.now() < until;) {
      const s = await this.evaluate('document.readyState', 5000).catch(() => 'loading');
      if (s === 'complete' || (state === 'interactive' && s === 'interactive')) return true;
      await sleep(100);
    }
    return false;
  }

  /** Waits until no request has been in flight for 500 ms (Playwright's 'networkidle'); false after `timeoutMs`. */
  async waitNetworkIdle(timeoutMs = 30_000): Promise<boolean> {
    for (const until = Date.now() + timeoutMs; Date.now() < until;) {
      if (
        this.inflight.size === 0 &&
        Date.now() - this.lastNetwork >= 500 &&
        (await this.waitReady('complete', 1000))
      )
        return true;
      await sleep(100);
    }
    return false;
  }

  /** Navigates and waits for `until` ('interactive', 'complete' or 'networkidle'); throws when the page does not
   * load (a network error) or does not reach the state within `timeoutMs`. */
  async goto(
    url: string,
    until: 'interactive' | 'complete' | 'networkidle' = 'complete',
    timeoutMs = 30_000,
  ): Promise<void> {
    const loaded = this.waitEvent('Page.loadEventFired', timeoutMs);
    const r = await this.send('Page.navigate', { url }, timeoutMs);
    if (typeof r.errorText === 'string' && r.errorText)
      throw new Error(`navigating to ${url} failed: ${r.errorText}`);
    if (until === 'interactive') {
      if (!(await this.waitReady('interactive', timeoutMs)))
        throw new Error(`${url} did not load within ${timeoutMs} ms`);
      return;
    }
    if (!(await loaded) && !(await this.waitReady('complete', 1000)))
      throw new Error(`${url} did not load within ${timeoutMs} ms`);
    if (until === 'networkidle' && !(await this.waitNetworkIdle(timeoutMs)))
      throw new Error(`${url} did not go network-idle within ${timeoutMs} ms`);
  }

  /** Waits until `selector` (CSS) matches an element — attached, or also visible — and returns whether it did. */
  async waitSelector(selector: string, state: 'attached' | 'visible', timeoutMs: number): Promise<boolean> {
    const probe = `(() => { const e = document.querySelector(${JSON.stringify(selector)}); if (!e) return false;
      ${state === 'visible' ? 'const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== "hidden";' : 'return true;'} })()`;
    for (const until = Date.now() + timeoutMs; ;) {
      if ((await this.evaluate(probe, 5000).catch(() => false)) === true) return true;
      if (Date.now() >= until) return false;
      await sleep(100);
    }
  }

  /** Clicks the first element matching `selector` with the mouse, at its centre (as Playwright does); if the
   * click starts a navigation, waits for the new page's load event. */
  async click(selector: string, timeoutMs = 30_000): Promise<void> {
    if (!(await this.waitSelector(selector, 'visible', timeoutMs)))
      throw new Error(`no visible element matches ${selector} within ${timeoutMs} ms`);
    const box = (await this
      .evaluate(`(() => { const e = document.querySelector(${JSON.stringify(selector)}); e.scrollIntoView({ block: 'center', inline: 'center' });
      const r = e.getBoundingClientRect(); return { x: r.left + r.width / 2, y: r.top + r.height / 2 }; })()`)) as {
      x: number;
      y: number;
    };
    const started = this.waitEvent('Page.frameStartedLoading', 1000);
    for (const type of ['mouseMoved', 'mousePressed', 'mouseReleased']) {
      await this.send('Input.dispatchMouseEvent', {
        type,
        x: box.x,
        y: box.y,
        button: type === 'mouseMoved' ? 'none' : 'left',
        clickCount: 1,
      });
    }
    if (await started) {
      await this.waitEvent('Page.loadEventFired', timeoutMs);
      await this.waitReady('complete', timeoutMs);
    }
  }

  /** Replaces the value of the input matching `selector` with `text`, as typed (input events fire). */
  async fill(selector: string, text: string): Promise<void> {
    const ok = await this
      .evaluate(`(() => { const e = document.querySelector(${JSON.stringify(selector)}); if (!e) return false;
      e.focus(); if ('select' in e) e.select(); return true; })()`);
    if (ok !== true) throw new Error(`no element matches ${selector}`);
    await this.send('Input.insertText', { text });
  }

  /** Closes the WebSocket, and the tab when this session opened it. */
  async close(): Promise<void> {
    this.ws.close();
    if (this.browserWs) {
      // closing the browser connection disposes of the context and its tabs (disposeOnDetach)
      await new Promise<void>((resolve) => {
        this.browserWs!.once('close', () => resolve());
        this.browserWs!.close();
      });
      return;
    }
    if (!this.endpoint) return;
    const endpoint = this.endpoint;
    await closeDevToolsPage(endpoint, this.tab.id).catch(() => undefined);
    // closing is asynchronous in the browser: wait until the tab has left its list (a getter asked next must not see it)
    for (const until = Date.now() + 5000; Date.now() < until;) {
      const open = await listDevToolsPages(endpoint).catch(() => []);
      if (!open.some((p) => p.id === this.tab.id)) break;
      await sleep(100);
    }
  }
}

/** A JSON-RPC caller on a DevTools WebSocket (one call at a time is enough for the browser-level commands). */
function rpc(
  ws: WebSocket,
): (method: string, params: Record<string, unknown>) => Promise<Record<string, unknown>> {
  let id = 0;
  return (method, params) =>
    new Promise((resolve, reject) => {
      const mine = ++id;
      const timer = setTimeout(() => reject(new Error(`${method} timed out`)), 15_000);
      const onMessage = (raw: WebSocket.RawData) => {
        const msg = JSON.parse(raw.toString()) as {
          id?: number;
          result?: Record<string, unknown>;
          error?: { message: string };
        };
        if (msg.id !== mine) return;
        clearTimeout(timer);
        ws.off('message', onMessage);
        if (msg.error) reject(new Error(`${method}: ${msg.error.message}`));
        else resolve(msg.result ?? {});
      };
      ws.on('message', onMessage);
      ws.send(JSON.stringify({ id: mine, method, params }));
    });
}

/** Runs `fn` on a new tab (about:blank) and closes the tab afterwards. `isolated`: in a browser context of its own
 * (Playwright's `browser.new_page()`), else in the user's profile (`browser.contexts[0].new_page()`). */
export async function withNewTab<T>(
  ctx: GradingContext,
  type: string,
  fn: (s: TabSession) => Promise<T>,
  isolated = false,
): Promise<T> {
  const s = isolated ? await TabSession.openIsolated(ctx, type) : await TabSession.open(ctx, type);
  try {
    return await fn(s);
  } finally {
    await s.close();
  }
}
