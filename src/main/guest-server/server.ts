// Proctor's server of OSWorld's VM control protocol over a LocalEnvironment: the routes of exec-, file- and
// screen-routes, a bearer token off loopback (or when asked), and the Proctor extensions GET /proctor/info and
// POST /proctor/reset (close the environment, ending every process the episode started, and create a fresh one;
// calls during a reset wait for it).
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import type { LocalEnvironment } from '../env/local';
import { proctorVersion } from '../version';
import { execRoutes } from './exec-routes';
import { fileRoutes } from './file-routes';
import { GUEST_HOME, type Guest, type GuestOptions, type GuestState, type Route } from './guest';
import { HttpError, sendJson, sendText } from './http-io';
import { screenRoutes } from './screen-routes';

export interface GuestServerOptions extends Partial<GuestOptions> {
  /** Makes the environment the server drives, at start and on every reset. */
  createEnvironment: () => Promise<LocalEnvironment>;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 5000; 0 picks a free port. */
  port?: number;
  /** The bearer token; generated when a token is required and none is given. */
  token?: string;
  /** Require the token even on loopback (it is always required off loopback). */
  requireToken?: boolean;
  log?: (line: string) => void;
}

export interface GuestServer {
  readonly url: string;
  readonly port: number;
  /** The token clients must send (`Authorization: Bearer …`), when one is required. */
  readonly token?: string;
  environment(): Promise<LocalEnvironment>;
  reset(): Promise<void>;
  close(): Promise<void>;
}

export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

const ROUTES: Route[] = [...execRoutes, ...fileRoutes, ...screenRoutes];

function digest(s: string): Buffer {
  return createHash('sha256').update(s).digest();
}

async function prepared(env: LocalEnvironment): Promise<LocalEnvironment> {
  // A desktop user's home has a Desktop folder (/desktop_path and many tasks expect it).
  // Made by the sandbox's own user (inside a namespace sandbox the agent's programs must be able to write there).
  const made = await env.run(['mkdir', '-p', `${GUEST_HOME}/Desktop`], { timeoutMs: 10_000 });
  if (made.exitCode !== 0) await mkdir(env.home.toHost(`${GUEST_HOME}/Desktop`), { recursive: true });
  return env;
}

export async function startGuestServer(opts: GuestServerOptions): Promise<GuestServer> {
  const host = opts.host ?? '127.0.0.1';
  const needsToken = !!opts.requireToken || !isLoopback(host) || opts.token !== undefined;
  const token = needsToken ? (opts.token ?? randomBytes(24).toString('base64url')) : undefined;
  if (token !== undefined && token.length < 16)
    throw new Error('the token must be at least 16 characters long');
  const tokenDigest = token !== undefined ? digest(token) : undefined;
  const log = opts.log ?? (() => undefined);

  let current: Promise<LocalEnvironment> = opts.createEnvironment().then(prepared);
  await current;
  let state: GuestState = {};
  const guest: Guest = {
    options: {
      allowPaths: (opts.allowPaths ?? []).map((p) => resolve(p)),
      downloads: opts.downloads,
      commandTimeoutMs: opts.commandTimeoutMs ?? 120_000,
      openWaitMs: opts.openWaitMs ?? 15_000,
    },
    env: () => current,
    get state() {
      return state;
    },
  };

  let resetting: Promise<void> | undefined;
  async function reset(): Promise<void> {
    if (resetting) return resetting;
    const old = current;
    const oldState = state;
    let done!: (env: Promise<LocalEnvironment>) => void;
    current = new Promise<LocalEnvironment>((r) => (done = r)).then((p) => p);
    current.catch(() => undefined); // a failed reset is answered to its caller; later calls see it too, but no crash
    resetting = (async () => {
      try {
        await oldState.recording?.stop().catch(() => undefined);
        await (await old.catch(() => undefined))?.close();
      } finally {
        state = {};
        const fresh = opts.createEnvironment().then(prepared);
        done(fresh);
        await fresh.finally(() => (resetting = undefined));
      }
    })();
    return resetting;
  }

  function authorised(req: IncomingMessage): boolean {
    if (!tokenDigest) return true;
    const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
    return !!m && timingSafeEqual(digest(m[1]), tokenDigest);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://guest');
    if (!authorised(req)) {
      res.setHeader('www-authenticate', 'Bearer');
      return sendJson(res, 401, {
        status: 'error',
        message: 'this server needs Authorization: Bearer <token>',
      });
    }
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    if (url.pathname === '/proctor/info' && method === 'GET')
      return sendJson(res, 200, { proctor: true, version: proctorVersion, reset: true });
    if (url.pathname === '/proctor/reset' && method === 'POST') {
      req.resume();
      await reset();
      const env = await current;
      return sendJson(res, 200, { status: 'success', display: env.display });
    }
    const routes = ROUTES.filter((r) => r.path === url.pathname);
    const route = routes.find((r) => r.method === method);
    if (!route) {
      req.resume();
      if (routes.length)
        return sendJson(res, 405, {
          status: 'error',
          message: `${req.method} is not allowed on ${url.pathname}`,
        });
      return sendJson(res, 404, { status: 'error', message: `no endpoint ${url.pathname}` });
    }
    await route.handler(req, res, guest, url);
  }

  const server: Server = createServer((req, res) => {
    const started = Date.now();
    handle(req, res)
      .catch((e: unknown) => {
        if (res.headersSent) return void res.destroy();
        if (e instanceof HttpError) {
          if (typeof e.body === 'string') sendText(res, e.status, e.body);
          else sendJson(res, e.status, e.body);
          if (e.status === 413) res.once('finish', () => req.destroy());
          return;
        }
        sendJson(res, 500, { status: 'error', message: (e as Error)?.message ?? String(e) });
      })
      .finally(() => log(`${req.method} ${req.url} ${res.statusCode} ${Date.now() - started} ms`));
  });
  server.keepAliveTimeout = 30_000;
  server.requestTimeout = 0; // long commands and downloads; the handlers bound themselves
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 5000, host, () => resolveListen());
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}`,
    port,
    token,
    environment: () => current,
    reset,
    async close() {
      await new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      });
      await state.recording?.stop().catch(() => undefined);
      await (await current.catch(() => undefined))?.close();
    },
  };
}
