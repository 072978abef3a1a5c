// A small Chrome DevTools Protocol client: list a browser's tabs over HTTP and evaluate JavaScript in one
// over its WebSocket. Only reads page state; it never closes the browser.
import WebSocket from 'ws';

export interface Tab {
  id: string;
  type: string;
  url: string;
  title: string;
  webSocketDebuggerUrl?: string;
}

/** The browser's page tabs, most recently active first (Chromium's /json order). */
export async function listTabs(endpoint: string, signal?: AbortSignal): Promise<Tab[]> {
  const base = endpoint.replace(/\/+$/, '');
  const res = await fetch(`${base}/json/list`, { signal: signal ?? AbortSignal.timeout(10_000) });
  if (!res.ok) throw new Error(`${base}/json/list answered ${res.status}`);
  const tabs = (await res.json()) as Tab[];
  return tabs.filter((t) => t.type === 'page' && !t.url.startsWith('devtools://'));
}

/** Evaluates an expression in a tab (promises awaited) and returns its JSON value. */
export async function evaluate(tab: Tab, expression: string, timeoutMs = 30_000): Promise<unknown> {
  if (!tab.webSocketDebuggerUrl)
    throw new Error(`tab ${tab.url} has no debugger URL (is DevTools attached to it?)`);
  const ws = new WebSocket(tab.webSocketDebuggerUrl, { perMessageDeflate: false });
  try {
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    const reply = await new Promise<Record<string, unknown>>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`evaluating in ${tab.url} timed out after ${timeoutMs} ms`)),
        timeoutMs,
      );
      ws.on('message', (raw) => {
        const msg = JSON.parse(raw.toString()) as {
          id?: number;
          result?: Record<string, unknown>;
          error?: { message: string };
        };
        if (msg.id !== 1) return;
        clearTimeout(timer);
        if (msg.error) reject(new Error(msg.error.message));
        else resolve(msg.result ?? {});
      });
      ws.send(
        JSON.stringify({
          id: 1,
          method: 'Runtime.evaluate',
          params: { expression, awaitPromise: true, returnByValue: true },
        }),
      );
    });
    const details = reply.exceptionDetails as
      { text?: string; exception?: { description?: string } } | undefined;
    if (details) throw new Error(details.exception?.description ?? details.text ?? 'exception');
    return (reply.result as { value?: unknown } | undefined)?.value;
  } finally {
    ws.close();
  }
}
