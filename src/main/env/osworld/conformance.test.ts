// Conformance: Proctor's `osworld` client against Proctor's own server of the protocol (`proctor env serve`) on a
// real sandbox display, method by method through the Environment interface — what a run does to a remote machine.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { createLocalEnvironment } from '../local';
import { startGuestServer, type GuestServer } from '../../guest-server';
import { createOsworldEnvironment, type OsworldEnvironment } from './index';

const missing = ['Xvfb', 'openbox', 'xdotool', 'xterm', 'mousepad', 'chromium'].filter(
  (t) => spawnSync('sh', ['-c', `command -v ${t}`]).status !== 0,
);
const why = missing.length ? `needs ${missing.join(', ')}` : '';

async function until<T>(what: string, ms: number, probe: () => Promise<T | undefined>): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe().catch(() => undefined);
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe.skipIf(!!why)(`the osworld client against proctor env serve ${why}`, () => {
  let server: GuestServer;
  let env: OsworldEnvironment;

  beforeAll(async () => {
    server = await startGuestServer({
      createEnvironment: () => createLocalEnvironment({ width: 1280, height: 800 }),
      port: 0,
      openWaitMs: 5000,
    });
    const port = server.port;
    env = await createOsworldEnvironment({ host: '127.0.0.1', port });
  }, 120_000);

  afterAll(async () => {
    await env?.close();
    await server?.close();
  });

  it('knows the server: Proctor with reset, the screen size, a PNG screenshot of that size', async () => {
    expect(env.kind).toBe('osworld');
    expect(env.canReset).toBe(true);
    expect(await env.screen()).toMatchObject({ width: 1280, height: 800 });
    const shot = await env.screenshot();
    expect(shot.format).toBe('png');
    expect(shot.data.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect([shot.width, shot.height]).toEqual([1280, 800]);
    const small = await env.screenshot({ maxWidth: 640, format: 'jpeg' });
    expect(small).toMatchObject({ format: 'jpeg', width: 640, toScreen: 2 });
  });

  it('runs commands with their output and exit code, and moves files both ways byte for byte', async () => {
    const r = await env.run(['sh', '-c', 'echo out; echo err >&2; exit 3']);
    expect(r.stdout).toContain('out');
    expect(r.exitCode).toBe(3);
    const bytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    await env.putFile('/home/user/Desktop/sub/bytes.bin', bytes);
    expect((await env.getFile('/home/user/Desktop/sub/bytes.bin'))?.equals(bytes)).toBe(true);
    expect(await env.getFile('/home/user/Desktop/nothing-here.bin')).toBeUndefined();
    expect((await env.run('cat ~/Desktop/sub/bytes.bin | wc -c')).stdout.trim()).toBe('256');
  });

  it('clicks where asked and types exactly into a terminal the server launched', async () => {
    await env.perform([{ type: 'moveTo', x: 321, y: 234 }]);
    const at = (await env.run(['xdotool', 'getmouselocation', '--shell'])).stdout;
    expect(at).toMatch(/X=321\s+Y=234/);
    await env.launch([
      'xterm',
      '-geometry',
      '80x10+0+0',
      '-title',
      'Typing',
      '-e',
      'sh',
      '-c',
      'cat > ~/typed.txt',
    ]);
    await until(
      'the terminal',
      20_000,
      async () =>
        (await env.run(['xdotool', 'search', '--onlyvisible', '--name', '^Typing$'])).exitCode === 0 ||
        undefined,
    );
    await env.activateWindow('Typing', { strict: true });
    expect(await env.windowTitles()).toContain('Typing'); // the guest's window list, for setup's checks
    const text = 'Hello, "World"! #1 & 100% ~ {ok}';
    await env.perform([
      { type: 'write', text },
      { type: 'press', keys: ['enter'] },
    ]);
    const typed = await until('the typed line', 10_000, async () => {
      const f = (await env.getFile('/home/user/typed.txt'))?.toString('utf8');
      return f?.includes('\n') ? f : undefined;
    });
    expect(typed).toBe(text + '\n');
    await env.closeWindow('Typing', { strict: true });
    await until(
      'the closed window to leave the list',
      10_000,
      async () => !(await env.windowTitles()).includes('Typing') || undefined,
    );
    await expect(env.activateWindow('No such window anywhere')).rejects.toThrow(
      /activate_window.*No such window anywhere/,
    );
  });

  it("opens a file with its program and reads the app's accessibility tree over the protocol", async () => {
    await env.putFile('/home/user/notes.txt', Buffer.from('milk\n'));
    await env.open('/home/user/notes.txt');
    const apps = await until('mousepad in the accessibility tree', 30_000, async () => {
      const nodes = await env.accessibilityTree();
      return nodes.some(
        (n) => /mousepad/i.test(n.name) || (n.children ?? []).some((c) => /notes\.txt/.test(c.name)),
      )
        ? nodes
        : undefined;
    });
    const flat = (ns: typeof apps): typeof apps => ns.flatMap((n) => [n, ...flat(n.children ?? [])]);
    // the editor's widgets come with screen boxes inside the screen (nodes without extents carry none)
    const onScreen = flat(apps).filter(
      (n) =>
        n.width > 0 && n.height > 0 && n.x >= 0 && n.y >= 0 && n.x + n.width <= 1280 && n.y + n.height <= 800,
    );
    expect(onScreen.length).toBeGreaterThan(5);
    expect(onScreen.some((n) => /menu|text|frame|push button|push-button/.test(n.role))).toBe(true);
  });

  it("starts the guest's browser and reaches its DevTools through the environment", async () => {
    const endpoint = await env.launchBrowser!(['about:blank']);
    const version = (await (await fetch(`${endpoint}/json/version`)).json()) as { Browser?: string };
    expect(version.Browser).toMatch(/Chrom/);
    expect(env.browserEndpoint()).toBe(endpoint);
  });

  it('resets the machine: a fresh home, the programs of the episode ended', async () => {
    await env.putFile('/home/user/left-over.txt', Buffer.from('x'));
    await env.reset();
    expect(await env.getFile('/home/user/left-over.txt')).toBeUndefined();
    expect(
      (await env.run(['sh', '-c', 'pgrep -x xterm || pgrep -x mousepad || echo none'])).stdout.trim(),
    ).toBe('none');
    expect(await env.screen()).toMatchObject({ width: 1280, height: 800 });
  });
});
