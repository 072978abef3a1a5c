// `proctor serve`: the UI⇄engine contract over HTTP + WebSocket, and the built UI.
//   POST /api/call {method, params} → {result} | {error}
//   GET  /files/<path>              → a file below the served root (images, text), size-capped
//   WS   /events                    → {event, payload} for every published event
//   GET  /…                         → the UI (out/renderer)
// Loopback by default. Bound elsewhere, every request needs the printed random token: the first page load trades
// it for an HttpOnly cookie; scripts send it as `Authorization: Bearer`.
// With a team (team-gate.ts), every request needs a person's token instead: the login page trades it for an
// HttpOnly, SameSite=Strict cookie, and each call runs as that person.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { isIPv4 } from 'node:net';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import type { ApiEvents, ApiHandlers, EventName } from '../../shared/api';
import { dispatch } from '../workbench/dispatch';
import { rootHider } from '../workbench/shown-paths';
import { cookieValue, reachableHosts } from './addresses';
import { inlineTypes, openServedFile, servedFile } from './served-files';
import type { EventSource } from '../workbench/events';
import type { Caller } from '../../shared/annotate';
import { gradeFile, loginPage, withheldEvent, type TeamGate } from './team-gate';

export interface ServeOptions {
  root: string;
  handlers: ApiHandlers;
  events: EventSource;
  uiDir: string;
  port?: number;
  host?: string;
  /** Force a token even on loopback. */
  token?: string | boolean;
  /** The folder's team: when it has people, each request needs one's token and runs as that person. */
  team?: TeamGate;
}

export interface RunningServer {
  /** The address to open (with the one-time token when one is needed). */
  url: string;
  /** Every address a browser can use: for a wildcard bind, one per non-internal IPv4 address of the machine. */
  urls: string[];
  port: number;
  host: string;
  token?: string;
  close(): Promise<void>;
}

const MAX_BODY = 1024 * 1024;
/** The UI's own files, and what other files are shown inline (served-files.ts). */
const contentTypes: Record<string, string> = {
  ...inlineTypes,
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
};

const CSP =
  "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self' ws: wss:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/** A loopback address or name: `localhost`, `::1`, or an IPv4 literal in 127/8 (not a name that starts with 127.). */
export function isLoopback(host: string): boolean {
  if (host === 'localhost' || host === '::1') return true;
  return isIPv4(host) && host.startsWith('127.');
}

/** The host part of a Host header (`[::1]:80` → `::1`, `127.0.0.1:80` → `127.0.0.1`). */
function hostName(header: string): string {
  const m = /^\[([^\]]+)\](?::\d+)?$/.exec(header);
  if (m) return m[1];
  return header.replace(/:\d+$/, '');
}

/**
 * A request a browser sent on behalf of another site: its Origin is not this server's own, or the browser says
 * it is cross-site. Such requests are refused, so no web page can drive the workbench (CSRF, rebinding).
 */
function crossSite(req: IncomingMessage): boolean {
  const site = req.headers['sec-fetch-site'];
  if (site === 'cross-site' || site === 'same-site') return true;
  const origin = req.headers.origin;
  if (origin === undefined) return false;
  try {
    return new URL(origin).host !== req.headers.host;
  } catch {
    return true;
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(text);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new Error('request body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The token a request carries: `Authorization: Bearer …` (scripts) or the HttpOnly cookie the first page load
 * set (browsers). Never the URL: a token in a URL stays in the address bar, the history and logs.
 */
function tokenOf(req: IncomingMessage, cookie: string): string | undefined {
  const auth = req.headers.authorization;
  if (auth?.startsWith('Bearer ')) return auth.slice(7);
  return cookieValue(req.headers.cookie, cookie);
}

function sameToken(a: string | undefined, b: string): boolean {
  if (!a) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The page address without its `token` parameter, as a same-origin path (never `//host`). */
function withoutToken(url: URL): string {
  const query = new URLSearchParams(url.search);
  query.delete('token');
  const rest = query.toString();
  return `/${url.pathname.replace(/^\/+/, '')}${rest ? `?${rest}` : ''}${url.hash}`;
}

export async function startServer(opts: ServeOptions): Promise<RunningServer> {
  const host = opts.host ?? '127.0.0.1';
  const token =
    typeof opts.token === 'string'
      ? opts.token
      : opts.token || !isLoopback(host)
        ? randomBytes(24).toString('base64url')
        : undefined;
  const uiDir = resolve(opts.uiDir);
  let port = opts.port ?? 0;
  // Cookies are per host, not per port: each server names its own, so two servers on one machine both work.
  let cookie = 'proctor-token';
  let personCookie = 'proctor-person';
  /** With a team: the person of the request's token (undefined: no valid one). */
  const personOf = (req: IncomingMessage): Caller | undefined =>
    opts.team?.identify(tokenOf(req, personCookie));

  /** Loopback servers accept only loopback Host headers (no DNS rebinding). */
  const hostAllowed = (req: IncomingMessage): boolean => {
    if (token) return true;
    return isLoopback(hostName(req.headers.host ?? ''));
  };

  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://x');
      if (!hostAllowed(req))
        return send(res, 403, { error: { code: 'forbidden', message: 'bad Host header' } });
      if (crossSite(req))
        return send(res, 403, { error: { code: 'forbidden', message: 'cross-site requests are refused' } });
      const team = opts.team?.active() ?? false;
      let caller: Caller | undefined;
      if (team) {
        if (url.pathname === '/login') return await login(req, res);
        if (url.pathname === '/logout' && req.method === 'POST') {
          res.writeHead(303, {
            location: '/login',
            'set-cookie': `${personCookie}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0`,
            'cache-control': 'no-store',
          });
          return res.end();
        }
        caller = personOf(req);
        const guarded = url.pathname.startsWith('/api/') || url.pathname.startsWith('/files/');
        if (!caller && guarded)
          return send(res, 401, {
            error: { code: 'forbidden', message: 'log in first: open /login with your team token' },
          });
        if (
          caller &&
          url.pathname.startsWith('/files/') &&
          caller.role === 'annotator' &&
          gradeFile(url.pathname)
        )
          return send(res, 403, {
            error: {
              code: 'forbidden',
              message: 'grading files are not served to annotators (blind review)',
            },
          });
      }
      // The printed address carries the token once: the page load that brings it trades it for an HttpOnly,
      // SameSite=Strict cookie and is sent to the same address without it.
      if (
        !team &&
        token &&
        url.searchParams.has('token') &&
        req.method === 'GET' &&
        !url.pathname.startsWith('/api/')
      ) {
        if (!sameToken(url.searchParams.get('token') ?? undefined, token)) {
          return send(res, 401, {
            error: {
              code: 'forbidden',
              message: "that token is not this server's; use the address proctor serve printed",
            },
          });
        }
        res.writeHead(303, {
          location: withoutToken(url),
          'set-cookie': `${cookie}=${token}; HttpOnly; SameSite=Strict; Path=/`,
          'cache-control': 'no-store',
          'referrer-policy': 'no-referrer',
        });
        return res.end();
      }
      const needsToken =
        !team && token && (url.pathname.startsWith('/api/') || url.pathname.startsWith('/files/'));
      if (needsToken && !sameToken(tokenOf(req, cookie), token)) {
        return send(res, 401, {
          error: {
            code: 'forbidden',
            message: 'a valid token is required: open the address proctor serve printed',
          },
        });
      }
      if (url.pathname === '/api/call' && req.method === 'POST') {
        // JSON only: a browser cannot send application/json cross-site without a preflight, which is never answered.
        if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
          return send(res, 415, {
            error: { code: 'bad_request', message: 'send the call as application/json' },
          });
        }
        let body: { method?: unknown; params?: unknown };
        try {
          body = JSON.parse(await readBody(req)) as typeof body;
        } catch (e) {
          return send(res, 400, {
            error: { code: 'bad_request', message: `bad JSON body: ${(e as Error).message}` },
          });
        }
        if (typeof body !== 'object' || body === null || Array.isArray(body)) {
          return send(res, 400, {
            error: { code: 'bad_request', message: 'the body must be an object {method, params}' },
          });
        }
        const outcome = await dispatch(opts.handlers, body.method, body.params, caller);
        if (outcome.ok) return send(res, 200, { result: outcome.result });
        const status = { bad_request: 400, not_found: 404, forbidden: 403, internal: 500 }[
          outcome.error.code
        ];
        return send(res, status, { error: outcome.error });
      }
      if (url.pathname.startsWith('/files/') && req.method === 'GET') {
        const found = servedFile(
          opts.root,
          decodeURIComponent(url.pathname.slice('/files/'.length)),
          req.headers.range,
        );
        if (!found.ok)
          return send(res, found.status, { error: { code: found.code, message: found.message } });
        res.writeHead(found.status, found.headers);
        if (found.end < found.start) return res.end();
        openServedFile(found)
          .on('error', () => res.destroy())
          .pipe(res);
        return;
      }
      if (req.method !== 'GET')
        return send(res, 405, { error: { code: 'bad_request', message: 'method not allowed' } });
      // The UI: static files, with index.html for any other path (deep links).
      let rel = normalize(decodeURIComponent(url.pathname)).replace(/^([/\\])+/, '');
      if (rel.split(sep).includes('..')) rel = '';
      let file = join(uiDir, rel);
      if (!rel || !existsSync(file) || !statSync(file).isFile()) file = join(uiDir, 'index.html');
      if (team && !caller && file.endsWith('index.html')) {
        res.writeHead(303, { location: '/login', 'cache-control': 'no-store' });
        return res.end();
      }
      if (!existsSync(file)) {
        res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
        return res.end('The UI is not built: run `npm run build` (or `npx electron-vite build`).');
      }
      res.writeHead(200, {
        'content-type': contentTypes[extname(file)] ?? 'application/octet-stream',
        'content-security-policy': CSP,
        'x-content-type-options': 'nosniff',
        'cache-control': file.endsWith('index.html') ? 'no-store' : 'public, max-age=3600',
      });
      createReadStream(file).pipe(res);
    } catch (e) {
      if (res.headersSent) return void res.destroy();
      if (e instanceof URIError)
        return send(res, 400, { error: { code: 'bad_request', message: 'malformed URL' } });
      process.stderr.write(`proctor serve: ${(e as Error).stack ?? String(e)}\n`);
      send(res, 500, { error: { code: 'internal', message: 'internal error (see the server log)' } });
    }
  });

  /** GET: the login form; POST (form-encoded `token`): the person's cookie, then the UI. */
  async function login(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const page = (status: number, message?: string) => {
      res.writeHead(status, {
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': CSP,
        'cache-control': 'no-store',
      });
      res.end(loginPage(message));
    };
    if (req.method === 'GET') return page(200);
    if (req.method !== 'POST')
      return send(res, 405, { error: { code: 'bad_request', message: 'method not allowed' } });
    if (!/^application\/x-www-form-urlencoded\b/i.test(req.headers['content-type'] ?? ''))
      return page(415, 'send the login form');
    const given = new URLSearchParams(await readBody(req)).get('token')?.trim() ?? '';
    const person = opts.team?.identify(given);
    if (!person) return page(401, "That token is not one of this team's.");
    res.writeHead(303, {
      location: '/',
      'set-cookie': `${personCookie}=${given}; HttpOnly; SameSite=Strict; Path=/`,
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
    });
    res.end();
  }

  const wss = new WebSocketServer({ noServer: true, maxPayload: 4096 });
  const clients = new Set<WebSocket>();
  const callers = new Map<WebSocket, Caller>();
  // A malformed frame (unmasked, reserved opcode, bad UTF-8, oversize…) or a reset socket closes that socket only:
  // every socket and WebSocket gets an 'error' listener, since an unheard 'error' event would end the process.
  wss.on('error', () => undefined);
  server.on('upgrade', (req, socket, head) => {
    socket.on('error', () => socket.destroy());
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://x');
    } catch {
      socket.destroy();
      return;
    }
    // Browsers send an Origin with every WebSocket; only the server's own pages may listen.
    const origin = req.headers.origin;
    const foreign =
      origin !== undefined &&
      (() => {
        try {
          return new URL(origin).host !== req.headers.host;
        } catch {
          return true;
        }
      })();
    const team = opts.team?.active() ?? false;
    const person = team ? personOf(req) : undefined;
    const unauthorised = team ? !person : token && !sameToken(tokenOf(req, cookie), token);
    if (url.pathname !== '/events' || foreign || !hostAllowed(req) || unauthorised) {
      socket.write('HTTP/1.1 401 Unauthorized\r\n\r\n');
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      clients.add(ws);
      if (person) callers.set(ws, person);
      ws.on('error', () => ws.terminate());
      ws.on('close', () => (clients.delete(ws), callers.delete(ws)));
    });
  });
  const hide = rootHider(opts.root);
  const unsubscribe = opts.events.subscribeAll(<E extends EventName>(event: E, payload: ApiEvents[E]) => {
    const text = JSON.stringify({ event, payload: hide.value(payload) });
    let blindText: string | undefined | null = null;
    for (const ws of clients) {
      if (ws.readyState !== ws.OPEN) continue;
      let out: string | undefined = text;
      // Annotators of a team get no verdicts or scores live (blind review); they read them once they labelled.
      if (callers.get(ws)?.role === 'annotator') {
        if (blindText === null) {
          const shown = withheldEvent(event, payload);
          blindText = shown === undefined ? undefined : JSON.stringify({ event, payload: hide.value(shown) });
        }
        out = blindText;
      }
      if (out === undefined) continue;
      if (ws.bufferedAmount > 32 * 1024 * 1024)
        ws.terminate(); // a client that stopped reading
      else ws.send(out);
    }
  });

  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => ok());
  });
  port = (server.address() as AddressInfo).port;
  cookie = `proctor-token-${port}`;
  personCookie = `proctor-person-${port}`;
  const urls = reachableHosts(host).map(
    (h) => `http://${h.includes(':') ? `[${h}]` : h}:${port}/${token ? `?token=${token}` : ''}`,
  );
  return {
    url: urls[0],
    urls,
    port,
    host,
    token,
    close: async () => {
      unsubscribe();
      for (const ws of clients) ws.terminate();
      await new Promise<void>((ok) => wss.close(() => ok()));
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}
