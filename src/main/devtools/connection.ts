// Proctor's one Chrome DevTools Protocol client: a browser's websocket, commands with ids and time limits, flat
// sessions for page targets (Target.attachToTarget {flatten}), events by session. Every caller uses it.
import WebSocket from 'ws';

/** Browser websocket URLs by endpoint, so an observation step does not ask /json/version again. */
const socketUrls = new Map<string, string>();

/** One protocol event; `sessionId` names the page session it came from (none for the browser's own). */
export interface CdpEvent {
  method: string;
  params: Record<string, unknown>;
  sessionId?: string;
}

interface Waiter {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  method: string;
  timer?: NodeJS.Timeout;
}

/** The browser websocket URL of `endpoint` (`http://HOST:PORT`), from its `GET /json/version`. */
export async function browserSocketUrl(
  endpoint: string,
  timeoutMs = 5000,
  signal?: AbortSignal,
): Promise<string> {
  const base = endpoint.replace(/\/+$/, '');
  const timeout = AbortSignal.timeout(timeoutMs);
  const res = await fetch(`${base}/json/version`, {
    signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
  });
  if (!res.ok) throw new Error(`CDP: ${base}/json/version answered HTTP ${res.status}`);
  const info = (await res.json()) as { webSocketDebuggerUrl?: unknown };
  if (typeof info.webSocketDebuggerUrl !== 'string' || !/^wss?:\/\//.test(info.webSocketDebuggerUrl))
    throw new Error(`CDP: ${base}/json/version has no webSocketDebuggerUrl`);
  return info.webSocketDebuggerUrl;
}

/** A DevTools Protocol connection to a browser (or to one target's own websocket URL). */
export class CdpConnection {
  private nextId = 1;
  private readonly waiting = new Map<number, Waiter>();
  private readonly listeners = new Set<(e: CdpEvent) => void>();
  private closedError?: Error;

  private constructor(
    private readonly socket: WebSocket,
    /** What the connection was opened with, for messages. */
    readonly endpoint: string,
  ) {
    socket.on('message', (data) => this.onMessage(String(data)));
    socket.on('close', () => this.failAll(new Error(`CDP: the connection to ${endpoint} closed`)));
    socket.on('error', (error) => this.failAll(error));
  }

  /**
   * Connects to `http://HOST:PORT` (asks /json/version for the browser websocket, remembered per endpoint) or to
   * a `ws://` URL. Throws, naming the endpoint, when nothing answers there or after `timeoutMs`.
   */
  static async open(endpoint: string, timeoutMs = 5000): Promise<CdpConnection> {
    try {
      return await CdpConnection.reach(endpoint, timeoutMs);
    } catch (error) {
      const e = error as Error & { cause?: { code?: string } };
      const why = e.cause?.code ? `${e.message} (${e.cause.code})` : e.message;
      throw new Error(`CDP: cannot connect to the browser at ${endpoint}: ${why}`, { cause: error });
    }
  }

  private static async reach(endpoint: string, timeoutMs: number): Promise<CdpConnection> {
    const known = socketUrls.get(endpoint);
    if (known) {
      try {
        return await CdpConnection.connect(known, endpoint, timeoutMs);
      } catch {
        socketUrls.delete(endpoint); // the browser restarted: ask again
      }
    }
    const url = /^https?:\/\//.test(endpoint) ? await browserSocketUrl(endpoint, timeoutMs) : endpoint;
    const connection = await CdpConnection.connect(url, endpoint, timeoutMs);
    if (url !== endpoint) {
      if (socketUrls.size > 64) socketUrls.clear();
      socketUrls.set(endpoint, url);
    }
    return connection;
  }

  private static async connect(url: string, endpoint: string, timeoutMs: number): Promise<CdpConnection> {
    const socket = new WebSocket(url, { perMessageDeflate: false, maxPayload: 512 * 1024 * 1024 });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        socket.terminate();
        reject(new Error(`CDP: no websocket connection to ${url} within ${timeoutMs} ms`));
      }, timeoutMs);
      socket.once('open', () => {
        clearTimeout(timer);
        resolve();
      });
      socket.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
    return new CdpConnection(socket, endpoint);
  }

  /**
   * Sends `method` (to the page session `sessionId`, else to the browser) and resolves with its result; rejects
   * with the protocol's error, when the connection closes, or after `timeoutMs` (no limit without one).
   */
  send<T = Record<string, unknown>>(
    method: string,
    params: object = {},
    sessionId?: string,
    timeoutMs?: number,
  ): Promise<T> {
    if (this.closedError) return Promise.reject(this.closedError);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const waiter: Waiter = { resolve: resolve as (v: unknown) => void, reject, method };
      if (timeoutMs !== undefined) {
        waiter.timer = setTimeout(() => {
          this.waiting.delete(id);
          reject(new Error(`CDP ${method} at ${this.endpoint} timed out after ${timeoutMs} ms`));
        }, timeoutMs);
        waiter.timer.unref();
      }
      this.waiting.set(id, waiter);
      this.socket.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    });
  }

  /** Calls `listener` with every event until the returned function is called. */
  onEvent(listener: (e: CdpEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Closes the websocket; resolves once it is closed (the browser then drops what the connection held). */
  close(): Promise<void> {
    if (this.socket.readyState === WebSocket.CLOSED) return Promise.resolve();
    const closed = new Promise<void>((resolve) => this.socket.once('close', () => resolve()));
    this.socket.close();
    return closed;
  }

  private onMessage(raw: string): void {
    let msg: {
      id?: number;
      result?: unknown;
      error?: { code: number; message: string };
      method?: string;
      params?: Record<string, unknown>;
      sessionId?: string;
    };
    try {
      msg = JSON.parse(raw);
    } catch {
      return;
    }
    if (msg.id === undefined) {
      if (!msg.method) return;
      const event: CdpEvent = { method: msg.method, params: msg.params ?? {}, sessionId: msg.sessionId };
      for (const l of [...this.listeners]) l(event);
      return;
    }
    const waiter = this.waiting.get(msg.id);
    if (!waiter) return;
    this.waiting.delete(msg.id);
    clearTimeout(waiter.timer);
    if (msg.error) waiter.reject(new Error(`CDP ${waiter.method}: ${msg.error.message} (${msg.error.code})`));
    else waiter.resolve(msg.result ?? {});
  }

  private failAll(error: Error): void {
    this.closedError ??= error;
    for (const w of this.waiting.values()) {
      clearTimeout(w.timer);
      w.reject(error);
    }
    this.waiting.clear();
  }
}
