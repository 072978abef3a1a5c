// The guest's browser on an osworld machine. OSWorld's task configs start Chrome with
// `--remote-debugging-port=1337` and forward the guest's 9222 to it with socat (Chrome serves DevTools on
// loopback only); launchBrowser does the same when nothing answers at the DevTools endpoint yet, then opens
// the URLs as tabs through DevTools (`PUT /json/new`).
import { EnvironmentError } from '../../errors';
import type { CommandResult } from '../environment';
import { sleep } from '../../sleep';
import { devToolsAnswers, openDevToolsTab } from '../../devtools';

/** Chrome's own DevTools port inside OSWorld guests; 9222 forwards to it. */
export const GUEST_CHROME_PORT = 1337;
const BROWSERS = ['google-chrome', 'chromium', 'chromium-browser'];

export interface BrowserGuest {
  run(command: string | string[], options?: { timeoutMs?: number }): Promise<CommandResult>;
  launch(command: string[]): Promise<void>;
}

export interface LaunchBrowserOptions {
  signal?: AbortSignal;
  /** How long to wait for the DevTools endpoint after starting the browser. Default 30 s. */
  readyTimeoutMs?: number;
  /** Poll interval. Default 250 ms. */
  pollMs?: number;
}

const pause = (ms: number, signal?: AbortSignal): Promise<void> =>
  sleep(ms, signal, () => new EnvironmentError('cancelled'));

/** True when a DevTools endpoint answers `GET /json/version`. */
async function devToolsAnswersHere(endpoint: string, signal?: AbortSignal): Promise<boolean> {
  return devToolsAnswers(endpoint, signal).catch(() => {
    throw new EnvironmentError('cancelled');
  });
}

/** Opens `url` in a new tab of the browser at `endpoint`. */
async function openTab(endpoint: string, url: string, signal?: AbortSignal): Promise<void> {
  try {
    await openDevToolsTab(endpoint, url, signal);
  } catch (e) {
    const why = signal?.aborted ? 'cancelled' : (e as Error).message;
    throw new EnvironmentError(`the guest browser at ${endpoint} could not open ${url}: ${why}`, {
      cause: e,
    });
  }
}

/**
 * Makes sure a browser answers at `endpoint` (starting one in the guest the way OSWorld's configs do when
 * none does) and opens `urls` in it as tabs. Returns the endpoint.
 */
export async function launchGuestBrowser(
  guest: BrowserGuest,
  endpoint: string,
  urls: string[],
  opts: LaunchBrowserOptions = {},
): Promise<string> {
  const base = endpoint.replace(/\/+$/, '');
  if (!(await devToolsAnswersHere(base, opts.signal))) {
    const found = await guest.run(
      `for b in ${BROWSERS.join(' ')}; do command -v "$b" && exit 0; done; exit 1`,
      { timeoutMs: 10_000 },
    );
    const binary = found.exitCode === 0 ? found.stdout.trim().split('\n')[0] : '';
    if (!binary)
      throw new EnvironmentError(`the guest has no browser to start (looked for ${BROWSERS.join(', ')})`);
    const port = Number(new URL(base).port || 80);
    const socat =
      port !== GUEST_CHROME_PORT &&
      (await guest.run('command -v socat', { timeoutMs: 10_000 })).exitCode === 0;
    // OSWorld's way: Chrome on 1337, socat forwarding the endpoint's port to it. A guest without socat (e.g.
    // `proctor env serve`, which the host reaches on its own loopback) gets the browser on the port itself.
    const devtoolsPort = port === GUEST_CHROME_PORT || socat ? GUEST_CHROME_PORT : port;
    await guest.launch([
      binary,
      `--remote-debugging-port=${devtoolsPort}`,
      '--no-first-run',
      '--no-default-browser-check',
      urls[0] ?? 'about:blank',
    ]);
    if (socat)
      await guest.launch([
        'socat',
        `tcp-listen:${port},fork,reuseaddr`,
        `tcp:localhost:${GUEST_CHROME_PORT}`,
      ]);
    const timeout = opts.readyTimeoutMs ?? 30_000;
    const until = Date.now() + timeout;
    for (;;) {
      if (await devToolsAnswersHere(base, opts.signal)) break;
      if (Date.now() >= until)
        throw new EnvironmentError(
          `the guest browser (${binary}) did not answer at ${base} within ${timeout / 1000} s`,
        );
      await pause(opts.pollMs ?? 250, opts.signal);
    }
    urls = urls.slice(1);
  }
  for (const url of urls) await openTab(base, url, opts.signal);
  return base;
}
