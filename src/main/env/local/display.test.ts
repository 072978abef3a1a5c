import { describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startDisplay } from './display';

const hasXvfb = spawnSync('sh', ['-c', 'command -v Xvfb openbox dbus-daemon xdpyinfo']).status === 0;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(cond: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (cond()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return cond();
}

describe.skipIf(!hasXvfb)('sandbox display (needs Xvfb, openbox, dbus-daemon, xdpyinfo)', () => {
  it('starts two displays at once on different numbers, at the asked size, and stop() removes them', async () => {
    const [a, b] = await Promise.all([
      startDisplay({ width: 800, height: 600 }),
      startDisplay({ width: 640, height: 480 }),
    ]);
    try {
      expect(a.display).not.toBe(b.display);
      const info = spawnSync('xdpyinfo', [], {
        env: { ...process.env, DISPLAY: a.display },
        encoding: 'utf8',
      });
      expect(info.stdout).toMatch(/dimensions:\s+800x600 pixels/);
      expect(a.env.DISPLAY).toBe(a.display);
      expect(a.env.DBUS_SESSION_BUS_ADDRESS).toMatch(/^unix:/);
      // The session bus answers and can activate the accessibility bus.
      const bus = spawnSync(
        'dbus-send',
        ['--session', '--print-reply', '--dest=org.a11y.Bus', '/org/a11y/bus', 'org.a11y.Bus.GetAddress'],
        {
          env: { ...process.env, ...a.env },
          encoding: 'utf8',
          timeout: 10_000,
        },
      );
      expect(bus.stdout).toMatch(/unix:/);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
    expect(alive(a.pids.xvfb)).toBe(false);
    expect(alive(b.pids.xvfb)).toBe(false);
    expect(existsSync(`/tmp/.X${a.display.slice(1)}-lock`)).toBe(false);
  });

  it('leaves no orphan Xvfb, openbox or dbus-daemon when the owning process is SIGKILLed', async () => {
    const holder = spawn(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(new URL('./testing/display-holder.ts', import.meta.url))],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const line = await new Promise<string>((resolve, reject) => {
      let t = '';
      holder.stdout!.on('data', (d: Buffer) => {
        t += d.toString();
        if (t.includes('\n')) resolve(t.split('\n')[0]);
      });
      holder.once('exit', (c) => reject(new Error(`holder exited ${c}`)));
    });
    const facts = JSON.parse(line) as {
      display: string;
      pids: { xvfb: number; openbox: number; dbus: number };
    };
    expect(alive(facts.pids.xvfb)).toBe(true);
    expect(alive(facts.pids.openbox)).toBe(true);
    holder.kill('SIGKILL');
    const gone = await until(
      () => !alive(facts.pids.xvfb) && !alive(facts.pids.openbox) && !alive(facts.pids.dbus),
      15_000,
    );
    expect(gone).toBe(true);
  });
});
