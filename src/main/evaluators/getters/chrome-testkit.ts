// Test helper for the Chrome getters: the real Chromium (/usr/bin/chromium) on a sandbox display, in its own
// process group, with a DevTools endpoint; and a way to change its settings the way its settings page does.
import { spawn, type ChildProcess } from 'node:child_process';
import { openTab } from './chrome-session';
import type { GradingContext } from '../getter';

export const chromium = '/usr/bin/chromium';

/** Starts Chromium (not headless) on the test's sandbox display (its hostEnv) with `profile` as its user data
 * dir, showing `url`. */
export function startChromium(
  display: { hostEnv: Record<string, string> },
  profile: string,
  url: string,
  extra: string[] = [],
): Promise<{ browser: ChildProcess; endpoint: string }> {
  const args = [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--no-default-browser-check',
    '--password-store=basic',
    '--remote-debugging-port=0',
    `--user-data-dir=${profile}`,
    ...extra,
    url,
  ];
  const browser = spawn(chromium, args, {
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, ...display.hostEnv },
  });
  return new Promise((resolve, reject) => {
    let err = '';
    browser.stderr!.on('data', (d) => {
      err += d;
      const m = /DevTools listening on ws:\/\/([^/]+)\//.exec(err);
      if (m) resolve({ browser, endpoint: `http://${m[1]}` });
    });
    browser.once('exit', () => reject(new Error(`chromium exited: ${err}`)));
  });
}

/** Asks Chromium to quit (it writes its profile on the way out), then ends what is left of its process group. */
export async function stopChromium(browser: ChildProcess): Promise<void> {
  if (browser.exitCode === null && browser.signalCode === null) {
    const exited = new Promise((r) => browser.once('exit', r));
    browser.kill('SIGTERM');
    await exited;
  }
  try {
    process.kill(-browser.pid!, 'SIGKILL');
  } catch {
    /* the group is gone */
  }
}

/** Sets preferences as chrome://settings does (chrome.settingsPrivate.setPref); Chromium saves them itself. */
export async function setChromePrefs(ctx: GradingContext, prefs: Record<string, unknown>): Promise<void> {
  const s = await openTab(ctx, 'test');
  try {
    await s.goto('chrome://settings/', 'complete', 30_000);
    for (const [key, value] of Object.entries(prefs)) {
      const ok = await s.evaluate(
        `new Promise((res) => chrome.settingsPrivate.setPref(${JSON.stringify(key)}, ${JSON.stringify(value)}, '', res))`,
      );
      if (ok !== true) throw new Error(`Chromium would not set ${key}`);
    }
  } finally {
    await s.close();
  }
}

/** Calls `get` until `done` accepts its value (at most `ms`); the last value. */
export async function eventually<T>(get: () => Promise<T>, done: (v: T) => boolean, ms = 30_000): Promise<T> {
  let v = await get();
  for (const until = Date.now() + ms; !done(v) && Date.now() < until;) {
    await new Promise((r) => setTimeout(r, 300));
    v = await get();
  }
  return v;
}
