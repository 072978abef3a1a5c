// The upstream server's defects, fixed: 16 concurrent clients × 50 calls all answered, and 1,000 screenshots +
// clicks without leaking X connections (counted as the X server's open sockets) or file descriptors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createLocalEnvironment } from '../env/local';
import { startGuestServer, type GuestServer } from './server';
import { guestClient, type GuestClient } from './testing/client';
import { xClientCount } from './testing/x-clients';

const missing = ['Xvfb', 'openbox', 'xdotool'].filter(
  (t) => spawnSync('sh', ['-c', `command -v ${t}`]).status !== 0,
);
const why = missing.length ? `needs ${missing.join(', ')}` : '';

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!!why)(`proctor env serve under load ${why}`, () => {
  let server: GuestServer;
  let c: GuestClient;

  beforeAll(async () => {
    server = await startGuestServer({
      createEnvironment: () => createLocalEnvironment({ width: 1024, height: 768 }),
      port: 0,
    });
    c = guestClient(server.url);
  });

  afterAll(async () => {
    await server?.close();
  });

  it('answers 16 concurrent clients × 50 calls, every one', async () => {
    const calls = [
      () => c.get('/screenshot'),
      (i: number) => c.pyautogui(`pyautogui.click(${10 + (i % 900)}, ${10 + (i % 700)})`),
      () => c.get('/cursor_position'),
      () => c.post('/screen_size'),
      () => c.post('/execute', { command: ['echo', 'ok'] }),
    ];
    const statuses = await Promise.all(
      Array.from({ length: 16 }, async (_, client) => {
        const seen: number[] = [];
        for (let i = 0; i < 50; i++)
          seen.push((await calls[(client + i) % calls.length](client * 50 + i)).status);
        return seen;
      }),
    );
    const all = statuses.flat();
    expect(all).toHaveLength(800);
    expect(all.filter((s) => s !== 200)).toEqual([]);
  });

  it('leaks no X connection and no descriptor over 1,000 screenshots + clicks', async () => {
    const env = await server.environment();
    const xvfb = env.sandbox!.pids.xvfb;
    await c.get('/screenshot');
    await settle(300);
    const xBefore = xClientCount(xvfb);
    const fdBefore = readdirSync('/proc/self/fd').length;
    for (let i = 0; i < 1000; i++) {
      const shot = await c.get('/screenshot');
      const click = await c.pyautogui(`pyautogui.click(${100 + (i % 800)}, ${100 + (i % 500)})`);
      if (shot.status !== 200 || click.status !== 200)
        throw new Error(`step ${i}: screenshot ${shot.status}, click ${click.status}`);
    }
    await settle(500);
    // Short-lived helpers (xdotool) may still be closing; the upstream leak would add about 1,000.
    expect(xClientCount(xvfb)).toBeLessThanOrEqual(xBefore + 2);
    expect(readdirSync('/proc/self/fd').length).toBeLessThanOrEqual(fdBefore + 10);
  });
});
