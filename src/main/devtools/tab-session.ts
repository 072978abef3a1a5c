// A DevTools session on one tab, for whoever drives a page the way OSWorld's getters drive it through Playwright
// (go to a URL, wait for it to load or for the network to go idle, click, type, print to PDF): a flat session on
// one browser connection (connection.ts). Tabs it opens it closes again.
import { sleep } from '../sleep';
import { CdpConnection, type CdpEvent } from './connection';
import { closeTab, type Tab } from './endpoints';

/** The tab of a session: its target id, its URL when attached, and the browser endpoint it is in. */
export type TabRef = Pick<Tab, 'id' | 'url' | 'endpoint'>;

export interface EvaluateOptions {
  timeoutMs?: number;
}

/** One page session: commands, events, and the helpers the page getters need. */
export class TabSession {
  private readonly unsubscribe: () => void;
  private readonly listeners = new Set<(e: CdpEvent) => void>();
  private readonly inflight = new Set<string>();
  private lastNetwork = Date.now();
  /** What close() does besides detaching: close the tab this session opened, or dispose of its browser context. */
  private owned?: { kind: 'tab' } | { kind: 'context'; browserContextId: string };

  private constructor(
    private readonly cdp: CdpConnection,
    private readonly sessionId: string,
    readonly tab: TabRef,
  ) {
    this.unsubscribe = cdp.onEvent((e) => {
      if (e.sessionId !== sessionId) return;
      this.track(e.method, e.params);
      for (const l of [...this.listeners]) l(e);
    });
  }

  /** Attaches to an open tab (from listTabs) with the Page and Network domains enabled. */
  static async attach(tab: TabRef, opts: { enable?: boolean } = {}): Promise<TabSession> {
    const cdp = await CdpConnection.open(tab.endpoint, 15_000);
    try {
      return await TabSession.onConnection(cdp, tab, opts.enable ?? true);
    } catch (e) {
      await cdp.close();
      throw new Error(`cannot attach to the tab ${tab.url} of ${tab.endpoint}: ${(e as Error).message}`, {
        cause: e,
      });
    }
  }

  private static async onConnection(cdp: CdpConnection, tab: TabRef, enable: boolean): Promise<TabSession> {
    const { sessionId } = await cdp.send<{ sessionId: string }>(
      'Target.attachToTarget',
      { targetId: tab.id, flatten: true },
      undefined,
      15_000,
    );
    const s = new TabSession(cdp, sessionId, tab);
    if (enable) {
      await s.send('Page.enable');
      await s.send('Network.enable');
    }
    return s;
  }

  /**
   * Opens `url` (default about:blank) in a new tab of the browser at `endpoint` and attaches to it; close()
   * closes the tab. `isolated`: the tab is in a browser context of its own (no cookies, storage or logins of the
   * user's profile) — what Playwright's `browser.new_page()` gives over CDP — and close() disposes of the context.
   */
  static async open(endpoint: string, opts: { url?: string; isolated?: boolean } = {}): Promise<TabSession> {
    const base = endpoint.replace(/\/+$/, '');
    const cdp = await CdpConnection.open(base, 15_000);
    let browserContextId: string | undefined;
    let targetId: string | undefined;
    try {
      if (opts.isolated) {
        ({ browserContextId } = await cdp.send<{ browserContextId: string }>(
          'Target.createBrowserContext',
          { disposeOnDetach: true },
          undefined,
          15_000,
        ));
      }
      const url = opts.url ?? 'about:blank';
      ({ targetId } = await cdp.send<{ targetId: string }>(
        'Target.createTarget',
        { url, ...(browserContextId ? { browserContextId } : {}) },
        undefined,
        15_000,
      ));
      const s = await TabSession.onConnection(cdp, { id: targetId, url, endpoint: base }, true);
      s.owned = browserContextId ? { kind: 'context', browserContextId } : { kind: 'tab' };
      return s;
    } catch (e) {
      if (browserContextId)
        await cdp
          .send('Target.disposeBrowserContext', { browserContextId }, undefined, 5000)
          .catch(() => undefined);
      else if (targetId)
        await cdp.send('Target.closeTarget', { targetId }, undefined, 5000).catch(() => undefined);
      await cdp.close();
      throw new Error(`the browser at ${base} would not open a tab: ${(e as Error).message}`, { cause: e });
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

  /** Sends a command to the page; rejects with the protocol's error or after `timeoutMs`. */
  send(
    method: string,
    params: Record<string, unknown> = {},
    timeoutMs = 60_000,
  ): Promise<Record<string, unknown>> {
    return this.cdp.send(method, params, this.sessionId, timeoutMs).catch((e: Error) => {
      throw new Error(`${e.message} (tab ${this.tab.url})`, { cause: e });
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

  /** Ends the session: closes the tab (or disposes of the browser context) this session opened, then the connection. */
  async close(): Promise<void> {
    this.unsubscribe();
    const owned = this.owned;
    if (owned?.kind === 'context') {
      await this.cdp
        .send('Target.disposeBrowserContext', { browserContextId: owned.browserContextId }, undefined, 15_000)
        .catch(() => undefined);
    } else {
      await this.cdp
        .send('Target.detachFromTarget', { sessionId: this.sessionId }, undefined, 5000)
        .catch(() => undefined);
    }
    await this.cdp.close();
    if (owned?.kind === 'tab') await closeTab(this.tab.endpoint, this.tab.id);
  }
}

/** Evaluates `expression` in the tab (promises awaited) over a session of its own, and returns its JSON value. */
export async function evaluateInTab(tab: TabRef, expression: string, timeoutMs = 30_000): Promise<unknown> {
  const s = await TabSession.attach(tab, { enable: false });
  try {
    return await s.evaluate(expression, timeoutMs);
  } finally {
    await s.close();
  }
}
