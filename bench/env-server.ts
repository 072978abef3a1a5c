// `proctor env serve` timing, in one run on one 1920×1080 sandbox display with a Chromium page open: the median
// click + screenshot step through the server (HTTP, OSWorld's python -c form) beside the same step on the local
// environment directly (no HTTP) as the baseline, and /accessibility. `npx tsx bench/env-server.ts [steps]`
import { CHROMIUM_FLAGS, createLocalEnvironment, type LocalEnvironment } from '../src/main/env/local';
import { startGuestServer } from '../src/main/guest-server';
import { guestClient } from '../src/main/guest-server/testing/client';
import { freePort } from '../src/main/free-port';
import { formPage, waitForHttp } from './form-page';

const steps = Number(process.argv[2] ?? 50);

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs: number[]): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(xs.length * 0.95) - 1)];
const ms = (n: number): string => `${n.toFixed(1)} ms`;

async function main(): Promise<void> {
  const server = await startGuestServer({
    createEnvironment: () => createLocalEnvironment({ width: 1920, height: 1080 }),
    port: 0,
  });
  const c = guestClient(server.url);
  try {
    const env: LocalEnvironment = await server.environment();
    await env.putFile('/home/user/page.html', Buffer.from(formPage));
    const port = await freePort();
    // Launched through the server, so that it learns the DevTools port for /accessibility.
    const launched = await c.post('/setup/launch', {
      command: [
        'chromium',
        ...CHROMIUM_FLAGS,
        `--remote-debugging-port=${port}`,
        '--user-data-dir=/tmp/bench-chromium',
        '--start-maximized',
        `file://${env.isolation === 'namespaces' ? '/home/user/page.html' : env.home.toHost('/home/user/page.html')}`,
      ],
    });
    if (launched.status !== 200)
      throw new Error(`/setup/launch answered ${launched.status}: ${launched.text()}`);
    await waitForHttp(`http://127.0.0.1:${port}/json/version`, 30_000);
    await new Promise((r) => setTimeout(r, 2000)); // let the page paint

    const direct: number[] = [];
    const http: number[] = [];
    const shots: number[] = [];
    const clicks: number[] = [];
    for (let i = 0; i < steps + 3; i++) {
      const [x, y] = [600 + (i % 10) * 30, 900];
      const d0 = performance.now();
      await env.perform([{ type: 'click', x, y }]);
      await env.screenshot({ format: 'png' });
      const d1 = performance.now();
      const click = await c.pyautogui(`pyautogui.click(${x + 5}, ${y})`);
      const h1 = performance.now();
      const shot = await c.get('/screenshot');
      const h2 = performance.now();
      if (click.status !== 200 || shot.status !== 200)
        throw new Error(`step ${i}: click ${click.status}, screenshot ${shot.status}`);
      if (i < 3) continue; // warm-up
      direct.push(d1 - d0);
      clicks.push(h1 - d1);
      shots.push(h2 - h1);
      http.push(h2 - d1);
    }
    const at: number[] = [];
    let nodes = 0;
    for (let i = 0; i < 10; i++) {
      const t0 = performance.now();
      const r = await c.get('/accessibility');
      at.push(performance.now() - t0);
      if (r.status !== 200) throw new Error(`/accessibility answered ${r.status}: ${r.text()}`);
      nodes = (r.json<{ AT: string }>().AT.match(/<[a-z]/g) ?? []).length;
    }
    console.log(`steps: ${steps} at 1920x1080, Chromium page open`);
    console.log(
      `baseline (local environment, no HTTP) click+screenshot: median ${ms(median(direct))}  p95 ${ms(p95(direct))}`,
    );
    console.log(
      `through proctor env serve (HTTP) click+screenshot:      median ${ms(median(http))}  p95 ${ms(p95(http))}  (${(median(http) / median(direct)).toFixed(1)}x baseline)`,
    );
    console.log(
      `  /execute python -c click ${ms(median(clicks))}, /screenshot with cursor ${ms(median(shots))} (medians)`,
    );
    console.log(`/accessibility (${nodes} elements): median ${ms(median(at))}  p95 ${ms(p95(at))}`);
    console.log(
      `targets: HTTP step ≤ 40 ms ${median(http) <= 40 ? 'met' : 'NOT met'}; /accessibility ≤ 300 ms ${median(at) <= 300 ? 'met' : 'NOT met'}`,
    );
    console.log(
      'upstream OSWorld server on this kind of machine: click+screenshot 407 ms, /accessibility 872 ms',
    );
  } finally {
    await server.close();
  }
}

await main();
