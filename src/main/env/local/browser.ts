// The local kinds' browser: Debian Chromium started in the guest (the sandbox display, or headless for the
// shell environment) with a DevTools port on loopback, found through the DevToolsActivePort file it writes
// in its profile. `launchBrowser` of the local and shell environments.
import type { Environment } from '../environment';
import { openDevToolsTab } from '../../devtools';
import { sleep } from '../../sleep';

/** Debian Chromium's flags for this machine, for every Chromium the local environment starts. */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--no-default-browser-check',
  '--force-renderer-accessibility',
  // no "unsupported command-line flag: --no-sandbox" bar across the top of every page the agent sees
  '--test-type',
];

const PORT_TIMEOUT_MS = 30_000;

type BrowserHost = Pick<Environment, 'launch' | 'getFile' | 'setBrowserEndpoint'>;

const pause = (ms: number, signal?: AbortSignal): Promise<void> =>
  sleep(ms, signal, () => new Error('cancelled'));

/**
 * Starts Chromium showing `urls[0]` (about:blank without one), waits for its DevTools port, records the
 * endpoint on the environment, opens the other URLs as tabs and returns the endpoint.
 */
export async function launchChromium(
  env: BrowserHost,
  urls: string[],
  options: { headless: boolean; signal?: AbortSignal },
): Promise<string> {
  const profile = `/tmp/proctor-chromium-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  const flags = [
    ...CHROMIUM_FLAGS,
    '--remote-debugging-port=0',
    '--remote-debugging-address=127.0.0.1',
    `--user-data-dir=${profile}`,
  ];
  if (options.headless) flags.push('--headless=new');
  await env.launch(['chromium', ...flags, urls[0] ?? 'about:blank']);
  // Chromium writes the port it took to DevToolsActivePort in the profile.
  const until = Date.now() + PORT_TIMEOUT_MS;
  let port: number | undefined;
  while (Date.now() < until && port === undefined) {
    const f = await env.getFile(`${profile}/DevToolsActivePort`);
    const n = f ? Number(f.toString('utf8').split('\n')[0]) : NaN;
    if (Number.isInteger(n) && n > 0) port = n;
    else await pause(25, options.signal);
  }
  if (port === undefined)
    throw new Error(
      `Chromium did not open its DevTools port within ${PORT_TIMEOUT_MS / 1000} s (is /usr/bin/chromium installed?)`,
    );
  const endpoint = `http://127.0.0.1:${port}`;
  env.setBrowserEndpoint?.(endpoint);
  for (const url of urls.slice(1)) await openDevToolsTab(endpoint, url, options.signal);
  return endpoint;
}
