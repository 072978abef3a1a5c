// Test and bench fixtures: real applications on a sandbox display (Chromium with a DevTools port, mousepad),
// a page served on 127.0.0.1 with elements at known places, and a screen grab through ImageMagick.
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Environment, Screenshot } from '../../environment';
import { removeTree } from '../../remove-tree';
import { poll } from './poll';

export const hasDisplayTools =
  spawnSync('sh', ['-c', 'command -v Xvfb openbox dbus-daemon xdotool import xprop']).status === 0;
export const hasChromium = spawnSync('sh', ['-c', 'command -v chromium']).status === 0;
export const hasMousepad =
  spawnSync('sh', ['-c', 'command -v mousepad && test -x /usr/libexec/at-spi-bus-launcher']).status === 0;

/** The test page: absolutely placed elements, so where they are is known without asking the page. */
export const FIXTURE_PAGE = `<!doctype html><html><head><title>Proctor fixture page</title><style>
body{margin:0;background:#ffffff;font:16px DejaVu Sans,sans-serif;height:3000px}
#go{position:absolute;left:100px;top:50px;width:120px;height:40px;background:#ff0000;color:#fff;border:0;padding:0}
#name{position:absolute;left:300px;top:60px;width:200px;height:30px;box-sizing:border-box}
#more{position:absolute;left:100px;top:200px}
#agree{position:absolute;left:300px;top:200px;margin:0;width:20px;height:20px}
#low{position:absolute;left:100px;top:500px;width:150px;height:30px;background:#00ff00;border:0;padding:0}
p{position:absolute;top:300px;left:50px;margin:0}
</style></head><body>
<button id="go">Go now</button>
<input id="name" value="hello" aria-label="Your name">
<a id="more" href="#x">Read more</a>
<input id="agree" type="checkbox" aria-label="I agree">
<p>Some paragraph text</p>
<button id="low">Low button</button>
</body></html>`;

export interface Served {
  url: string;
  close(): Promise<void>;
}

export async function serveFixturePage(html = FIXTURE_PAGE): Promise<Served> {
  const server = createServer((_req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface App {
  process: ChildProcess;
  stop(): Promise<void>;
}

function stopGroup(child: ChildProcess, cleanup?: () => void | Promise<void>): () => Promise<void> {
  return async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        /* gone */
      }
      await Promise.race([gone, new Promise((r) => setTimeout(r, 3000))]);
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
    await cleanup?.();
  };
}

export interface Chromium extends App {
  /** http://127.0.0.1:PORT */
  endpoint: string;
}

function chromiumArgs(
  profile: string,
  url: string,
  opts: { position?: [number, number]; size?: [number, number] },
): string[] {
  const [x, y] = opts.position ?? [0, 0];
  const [w, h] = opts.size ?? [1000, 700];
  return [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
    '--no-default-browser-check',
    '--password-store=basic',
    `--user-data-dir=${profile}`,
    '--remote-debugging-port=0',
    `--window-position=${x},${y}`,
    `--window-size=${w},${h}`,
    url,
  ];
}

/** Waits for Chromium's DevTools port (read by `readPort`) and for `url` to have loaded; the endpoint. */
async function chromiumReady(url: string, readPort: () => Promise<string | undefined>): Promise<string> {
  const port = await poll('Chromium DevToolsActivePort', 20_000, readPort);
  const endpoint = `http://127.0.0.1:${port}`;
  // wait until the page has loaded and is on the screen
  await poll('the page to load', 20_000, async () => {
    try {
      const res = await fetch(`${endpoint}/json/list`);
      const pages = (await res.json()) as { type: string; url: string; title: string }[];
      return pages.some((p) => p.type === 'page' && p.url === url && p.title !== '' && p.title !== url)
        ? true
        : undefined;
    } catch {
      return undefined;
    }
  });
  return endpoint;
}

/** Chromium on the display with a DevTools port it picks itself, one window at `position` of `size`. */
export async function startChromium(
  env: Record<string, string>,
  url: string,
  opts: { position?: [number, number]; size?: [number, number] } = {},
): Promise<Chromium> {
  const profile = mkdtempSync(join(tmpdir(), 'proctor-observe-chromium-'));
  const child = spawn('chromium', chromiumArgs(profile, url, opts), {
    detached: true,
    stdio: 'ignore',
    env: { ...process.env, ...env, HOME: profile },
  });
  const stop = stopGroup(child, () => removeTree(profile));
  try {
    const endpoint = await chromiumReady(url, async () => {
      try {
        return readFileSync(join(profile, 'DevToolsActivePort'), 'utf8').split('\n')[0] || undefined;
      } catch {
        return undefined;
      }
    });
    return { process: child, endpoint, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Chromium started by an environment (inside its sandbox session, as tasks start it), one window at `position`
 * of `size`; it ends with the environment.
 */
export async function startChromiumIn(
  env: Environment,
  url: string,
  opts: { position?: [number, number]; size?: [number, number] } = {},
): Promise<{ endpoint: string }> {
  const profile = `/tmp/proctor-observe-chromium-${Math.random().toString(36).slice(2, 10)}`;
  await env.launch(['chromium', ...chromiumArgs(profile, url, opts)]);
  const endpoint = await chromiumReady(
    url,
    async () =>
      (await env.getFile(`${profile}/DevToolsActivePort`))?.toString('utf8').split('\n')[0] || undefined,
  );
  return { endpoint };
}

/** mousepad (GTK3) editing a new file holding `text`; resolves once its window is mapped. */
export async function startMousepad(
  env: Record<string, string>,
  text: string,
): Promise<App & { file: string }> {
  const home = mkdtempSync(join(tmpdir(), 'proctor-observe-mousepad-'));
  const file = join(home, 'notes.txt');
  writeFileSync(file, text);
  const child = spawn('mousepad', [file], {
    detached: true,
    stdio: 'ignore',
    env: { ...process.env, ...env, HOME: home, XDG_CONFIG_HOME: join(home, '.config') },
  });
  const stop = stopGroup(child, () => removeTree(home));
  try {
    await poll('the mousepad window', 20_000, () => {
      const r = spawnSync('xdotool', ['search', '--onlyvisible', '--name', 'notes.txt'], {
        env: { ...process.env, ...env },
        encoding: 'utf8',
      });
      return r.status === 0 && r.stdout.trim() ? true : undefined;
    });
    return { process: child, stop, file };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The whole screen as PNG, grabbed by ImageMagick's `import`. */
export function grabScreen(env: Record<string, string>): Promise<Screenshot> {
  return new Promise((resolve, reject) => {
    execFile(
      'import',
      ['-window', 'root', 'png:-'],
      { env: { ...process.env, ...env }, encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 },
      (error, stdout) => {
        if (error) return reject(error);
        sharp(stdout)
          .metadata()
          .then(
            (m) => resolve({ data: stdout, format: 'png', width: m.width!, height: m.height!, toScreen: 1 }),
            reject,
          );
      },
    );
  });
}

/** xdotool on the display. */
export function xdotool(env: Record<string, string>, ...args: string[]): string {
  const r = spawnSync('xdotool', args, { env: { ...process.env, ...env }, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`xdotool ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}
