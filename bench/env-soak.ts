// Soak of `proctor env serve`: N screenshots + clicks over HTTP (default 10,000) on a 1920×1080 sandbox display,
// printing the server's RSS (this process and its display worker) and the X server's client connections at the
// start, every 1,000 steps and at the end — they must stay flat. `npx tsx bench/env-soak.ts [steps]`
import { readdirSync, readFileSync } from 'node:fs';
import { createLocalEnvironment } from '../src/main/env/local';
import { startGuestServer } from '../src/main/guest-server';
import { guestClient } from '../src/main/guest-server/testing/client';
import { xClientCount } from '../src/main/guest-server/testing/x-clients';

const steps = Number(process.argv[2] ?? 10_000);

function rssMb(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    return kb / 1024;
  } catch {
    return 0;
  }
}

async function main(): Promise<void> {
  const server = await startGuestServer({
    createEnvironment: () => createLocalEnvironment({ width: 1920, height: 1080 }),
    port: 0,
  });
  const c = guestClient(server.url);
  try {
    const env = await server.environment();
    const xvfb = env.sandbox!.pids.xvfb;
    const line = (label: string): void =>
      console.log(
        `${label.padEnd(12)} server RSS ${rssMb(process.pid).toFixed(0)} MB, display worker RSS ${rssMb(env.workerPid()).toFixed(0)} MB, ` +
          `X clients ${xClientCount(xvfb)}, open fds ${readdirSync('/proc/self/fd').length}`,
      );
    await c.get('/screenshot');
    line('start');
    const t0 = performance.now();
    let failures = 0;
    for (let i = 1; i <= steps; i++) {
      const shot = await c.get('/screenshot');
      const click = await c.pyautogui(`pyautogui.click(${100 + (i % 1700)}, ${100 + (i % 900)})`);
      if (shot.status !== 200 || click.status !== 200) failures++;
      if (i % 1000 === 0 && i !== steps) line(`step ${i}`);
    }
    const secs = (performance.now() - t0) / 1000;
    await new Promise((r) => setTimeout(r, 500));
    line('end');
    console.log(
      `${steps} screenshots + clicks in ${secs.toFixed(0)} s (${((secs * 1000) / steps).toFixed(1)} ms a step), ${failures} failed`,
    );
  } finally {
    await server.close();
  }
}

await main();
