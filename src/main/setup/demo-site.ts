// The demo site: a static web server on 127.0.0.1 over resources/demo/site, so the browser tasks run offline.
import { createServer, type Server } from 'node:http';
import { readFile, realpath } from 'node:fs/promises';
import { dirname, extname, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** resources/demo/site (the demo's served pages; demo/paths.ts names the same folder for the demo's tasks). */
const demoSiteDir = resolve(dirname(fileURLToPath(import.meta.url)), '../../../resources/demo/site');

export interface DemoSite {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:43123`. */
  url: string;
  close(): Promise<void>;
}

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

/** Maps a request path to a file inside root; undefined when it escapes root or is malformed. */
async function fileFor(root: string, urlPath: string): Promise<string | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath.split('?')[0].split('#')[0]);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0')) return undefined;
  const wanted = resolve(root, '.' + (decoded.endsWith('/') ? decoded + 'index.html' : decoded));
  if (wanted !== root && !wanted.startsWith(root + sep)) return undefined;
  try {
    const real = await realpath(wanted);
    return real.startsWith(root + sep) ? real : undefined;
  } catch {
    return undefined;
  }
}

/** Starts a server over `root` (default resources/demo/site) on 127.0.0.1, on `port` (default: a free one). */
export async function startDemoSite(options: { root?: string; port?: number } = {}): Promise<DemoSite> {
  const root = await realpath(options.root ?? demoSiteDir);
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    void (async () => {
      const file = await fileFor(root, req.url ?? '/');
      const body = file ? await readFile(file).catch(() => undefined) : undefined;
      if (!file || !body) {
        res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found\n');
        return;
      }
      res.writeHead(200, {
        'content-type': contentTypes[extname(file)] ?? 'application/octet-stream',
        'cache-control': 'no-store',
        'content-length': body.length,
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    })();
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(options.port ?? 0, '127.0.0.1', () => ok());
  });
  server.unref();
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('demo site: the server has no TCP address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

let shared: Promise<DemoSite> | undefined;

/** The one demo site of this process, started on first use; it stops with the process (its socket is unref'd). */
export function sharedDemoSite(): Promise<DemoSite> {
  shared ??= startDemoSite().catch((e: unknown) => {
    shared = undefined;
    throw e;
  });
  return shared;
}

/** `http://127.0.0.1:PORT/<path>` for a path of the shared demo site (leading slash optional). */
export async function demoSiteUrl(path = '/'): Promise<string> {
  const site = await sharedDemoSite();
  return site.url + '/' + path.replace(/^\/+/, '');
}
