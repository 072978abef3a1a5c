// Under a real Xvfb with a real Chromium: the pointer, clicks, exact typing, half-resolution models, a crashed
// worker, the kill switch and the corner fail-safe. One sandbox display for the whole file (2 cores).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import sharp from 'sharp';
import { createLocalEnvironment, type LocalEnvironment } from './local-environment';
import { CHROMIUM_FLAGS } from './browser';
import {
  EVENT_WAIT_MS,
  kioskLayout,
  startPageServer,
  waitFor,
  waitForPainted,
  type PageServer,
} from './testing/page-server';
import { EnvironmentError } from '../../errors';
import { FailsafeError, InputKilledError } from '../input-errors';

const missing = ['Xvfb', 'openbox', 'xdotool', 'chromium'].filter(
  (t) => spawnSync('sh', ['-c', `command -v ${t}`]).status !== 0,
);
const why = missing.length ? `needs ${missing.join(', ')}` : '';

export const PRINTABLE_ASCII = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('');
export const NON_ASCII = 'é ß € 日本語 😀 Ünïcödé ÀÉÎ Ωω';

describe.skipIf(!!why)(`local environment on a sandbox display ${why}`, () => {
  let env: LocalEnvironment;
  let page: PageServer;

  beforeAll(async () => {
    env = await createLocalEnvironment({ width: 1280, height: 800 });
    page = await startPageServer();
    await env.launch([
      'chromium',
      ...CHROMIUM_FLAGS,
      '--kiosk',
      '--user-data-dir=/tmp/chromium-profile',
      page.url,
    ]);
    await waitFor(() => page.report.layout, 60_000, 'the test page to load in Chromium');
    // Kiosk mode settles after load; wait for the final layout (no browser chrome above the page).
    const layout = await waitFor(() => kioskLayout(page), 20_000, 'Chromium kiosk layout');
    await waitForPainted(async () => (await env.screenshot()).data, layout);
  });

  afterAll(async () => {
    await env?.close();
    await page?.close();
  });

  const location = (): { x: number; y: number } => {
    const out = spawnSync('xdotool', ['getmouselocation', '--shell'], {
      env: { ...process.env, ...env.displayEnv },
      encoding: 'utf8',
    }).stdout;
    return { x: Number(/X=(\d+)/.exec(out)?.[1]), y: Number(/Y=(\d+)/.exec(out)?.[1]) };
  };

  it('puts the pointer exactly where asked, absolute and relative', async () => {
    for (const [x, y] of [
      [5, 7],
      [1279, 799],
      [640, 400],
      [333, 444],
    ]) {
      await env.perform([{ type: 'moveTo', x, y }]);
      expect(location()).toEqual({ x, y });
    }
    await env.perform([{ type: 'moveRel', dx: -33, dy: 56 }]);
    expect(location()).toEqual({ x: 300, y: 500 });
    await env.perform([{ type: 'moveTo', x: 100.6, y: 99.4, duration: 0.1 }]);
    expect(location()).toEqual({ x: 101, y: 99 });
  });

  it("lands a click on the centre of a Chromium button, with the button's event at that screen pixel", async () => {
    const b = page.report.layout!.button;
    const cx = Math.round(b.x + b.w / 2);
    const cy = Math.round(b.y + b.h / 2);
    page.report.clicks.length = 0;
    await env.perform([{ type: 'click', x: cx, y: cy }]);
    const click = await waitFor(() => page.report.clicks[0], EVENT_WAIT_MS, 'the click to be reported');
    expect(click).toMatchObject({ id: 'btn', screenX: cx, screenY: cy, button: 0 });
    page.report.clicks.length = 0;
    await env.perform([{ type: 'click', x: cx, y: cy, button: 'right' }]);
    expect(await waitFor(() => page.report.clicks[0], EVENT_WAIT_MS, 'the right click')).toMatchObject({
      id: 'btn',
      button: 2,
    });
    page.report.clicks.length = 0;
    await env.perform([{ type: 'click', x: cx, y: cy, clicks: 2 }]);
    const both = await waitFor(
      () => page.report.clicks.length >= 2 && page.report.clicks,
      EVENT_WAIT_MS,
      'a double click',
    );
    expect(both[1].detail).toBe(2);
  });

  it('clicks the right screen pixel when a model picks it on a half-resolution screenshot', async () => {
    const shot = await env.screenshot({ maxWidth: 640, format: 'png' });
    expect([shot.width, shot.height, shot.toScreen]).toEqual([640, 400, 2]);
    // Find the red marker (4×4 on screen, 2×2 here) in the half-size image, as a model would.
    const { data, info } = await sharp(shot.data).raw().toBuffer({ resolveWithObject: true });
    let best = { x: -1, y: -1, score: -1 };
    for (let y = 0; y < info.height; y++)
      for (let x = 0; x < info.width; x++) {
        const i = (y * info.width + x) * info.channels;
        const score = data[i] - (data[i + 1] + data[i + 2]) / 2;
        if (score > best.score) best = { x, y, score };
      }
    expect(best.score).toBeGreaterThan(60); // red, so the capture's channels are in the right order
    const m = page.report.layout!.marker;
    const sx = Math.round(best.x * shot.toScreen);
    const sy = Math.round(best.y * shot.toScreen);
    page.report.clicks.length = 0;
    await env.perform([{ type: 'click', x: sx, y: sy }]);
    const click = await waitFor(() => page.report.clicks[0], EVENT_WAIT_MS, 'the click');
    expect(click.screenX).toBe(sx);
    expect(click.screenY).toBe(sy);
    // …and on the 4×4 red marker itself.
    expect(click.screenX).toBeGreaterThanOrEqual(m.x);
    expect(click.screenX).toBeLessThan(m.x + 4);
    expect(click.screenY).toBeGreaterThanOrEqual(m.y);
    expect(click.screenY).toBeLessThan(m.y + 4);
  });

  it('types all printable ASCII and non-ASCII text exactly into a Chromium text area', async () => {
    const b = page.report.layout!;
    await env.perform([
      { type: 'click', x: 200, y: 400 },
      { type: 'hotkey', keys: ['ctrl', 'a'] },
      { type: 'press', keys: ['backspace'] },
    ]);
    await waitFor(() => page.report.text === '' || undefined, EVENT_WAIT_MS, 'an empty text area');
    const text = `${PRINTABLE_ASCII}\n${NON_ASCII}\nend"'\\<>`;
    await env.perform([{ type: 'write', text }]);
    await waitFor(
      () => page.report.text === text || undefined,
      10_000,
      `the typed text; got ${JSON.stringify(page.report.text)}`,
    ).catch(() => undefined);
    expect(page.report.text).toBe(text);
    expect(b).toBeDefined();
  });

  it('types all printable ASCII and non-ASCII text exactly into xterm (an X text program) running cat', async () => {
    await env.launch([
      'xterm',
      '-u8',
      '-geometry',
      '120x10+0+0',
      '-e',
      'sh',
      '-c',
      'stty -echo; cat > /home/user/typed.txt',
    ]);
    await waitFor(
      () =>
        spawnSync('xdotool', ['search', '--onlyvisible', '--class', 'xterm'], {
          env: { ...process.env, ...env.displayEnv },
        }).status === 0,
      20_000,
      'the xterm window',
    );
    await new Promise((r) => setTimeout(r, 500));
    await env.perform([{ type: 'click', x: 100, y: 60 }]);
    const text = `${PRINTABLE_ASCII}\n${NON_ASCII}\n`;
    await env.perform([
      { type: 'write', text },
      { type: 'hotkey', keys: ['ctrl', 'd'] },
    ]);
    const file = await waitFor(
      () => {
        const r = spawnSync('cat', [env.home.toHost('/home/user/typed.txt')], { encoding: 'utf8' });
        return r.stdout === text ? r.stdout : false;
      },
      10_000,
      'the typed file',
    ).catch(() => spawnSync('cat', [env.home.toHost('/home/user/typed.txt')], { encoding: 'utf8' }).stdout);
    expect(file).toBe(text);
  });

  it('captures PNG and JPEG at full size with the screen scale kept', async () => {
    const png = await env.screenshot();
    expect(png).toMatchObject({ format: 'png', width: 1280, height: 800, toScreen: 1 });
    expect((await sharp(png.data).metadata()).format).toBe('png');
    const jpg = await env.screenshot({ format: 'jpeg', quality: 50 });
    expect((await sharp(jpg.data).metadata()).format).toBe('jpeg');
    expect(await env.screen()).toEqual({ width: 1280, height: 800, scale: 1 });
  });

  it('turns a killed worker into an EnvironmentError on that call, and the next call works', async () => {
    const pid = env.workerPid();
    expect(pid).toBeGreaterThan(0);
    const slow = env.perform([{ type: 'write', text: 'x'.repeat(400), interval: 0.01 }]);
    await new Promise((r) => setTimeout(r, 150));
    process.kill(pid!, 'SIGKILL');
    await expect(slow).rejects.toBeInstanceOf(EnvironmentError);
    await env.perform([{ type: 'moveTo', x: 50, y: 60 }]);
    expect(location()).toEqual({ x: 50, y: 60 });
    expect(env.workerPid()).not.toBe(pid);
  });

  it('stops an action sequence within 100 ms of kill()', async () => {
    await env.perform([
      { type: 'click', x: 200, y: 400 },
      { type: 'hotkey', keys: ['ctrl', 'a'] },
      { type: 'press', keys: ['backspace'] },
    ]);
    const long = env.perform([
      { type: 'write', text: 'k'.repeat(300), interval: 0.02 },
      { type: 'click', x: 10, y: 10 },
    ]);
    const outcome = long.then(
      () => 'finished',
      (e) => e,
    );
    await new Promise((r) => setTimeout(r, 300));
    const t0 = performance.now();
    await env.kill();
    const err = await outcome;
    const stoppedMs = performance.now() - t0;
    expect(err).toBeInstanceOf(InputKilledError);
    expect(stoppedMs).toBeLessThan(100);
    await new Promise((r) => setTimeout(r, 300));
    const typed = page.report.text.length;
    expect(typed).toBeGreaterThan(0);
    expect(typed).toBeLessThan(300);
    // Later sequences run again.
    await env.perform([{ type: 'moveTo', x: 70, y: 80 }]);
    expect(location()).toEqual({ x: 70, y: 80 });
  });

  it('aborts with FailsafeError when the pointer sits in a screen corner (fail-safe on)', async () => {
    const guarded = await createLocalEnvironment({ display: env.display, failsafe: true });
    try {
      await guarded.perform([{ type: 'moveTo', x: 500, y: 500 }]);
      spawnSync('xdotool', ['mousemove', '0', '0'], { env: { ...process.env, ...env.displayEnv } });
      await expect(guarded.perform([{ type: 'click', x: 600, y: 600 }])).rejects.toBeInstanceOf(
        FailsafeError,
      );
      expect(location()).toEqual({ x: 0, y: 0 });
      spawnSync('xdotool', ['mousemove', '1279', '799'], { env: { ...process.env, ...env.displayEnv } });
      await expect(guarded.perform([{ type: 'write', text: 'no' }])).rejects.toBeInstanceOf(FailsafeError);
      spawnSync('xdotool', ['mousemove', '400', '400'], { env: { ...process.env, ...env.displayEnv } });
      await guarded.perform([{ type: 'moveTo', x: 401, y: 402 }]);
      expect(location()).toEqual({ x: 401, y: 402 });
    } finally {
      await guarded.close();
    }
  });
});

describe.skipIf(!!why)(`closing a local environment ${why}`, () => {
  const running = (pattern: string): string =>
    spawnSync('pgrep', ['-af', pattern], { encoding: 'utf8' })
      .stdout.split('\n')
      .filter((l) => l && !l.includes('pgrep'))
      .join('\n');

  it('closed right after it starts, leaves nothing: the worker it was starting, its apps, its display, its home', async () => {
    const e = await createLocalEnvironment({ width: 320, height: 240 });
    const tag = `proctor-close-probe-${process.pid}-${Date.now()}`;
    await e.launch(['xterm', '-title', tag]);
    await waitFor(() => running(tag) || undefined, 20_000, 'the xterm to start');
    const alive = (pid: number | undefined): boolean =>
      pid !== undefined && spawnSync('kill', ['-0', String(pid)]).status === 0;
    const xvfb = e.sandbox!.pids.xvfb;
    expect(alive(xvfb)).toBe(true);
    await e.close(); // the worker (started at creation) may still be loading
    expect(alive(e.workerPid())).toBe(false);
    expect(running(tag)).toBe('');
    expect(alive(xvfb)).toBe(false);
    expect(existsSync(e.home.root)).toBe(false);
  });
});
