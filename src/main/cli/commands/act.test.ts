// `proctor act` and `proctor screenshot` on a real sandbox display.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { main } from '../main';
import { startDisplay, type SandboxDisplay } from '../../env/local/display';

const hasX = spawnSync('sh', ['-c', 'command -v Xvfb openbox xdotool']).status === 0;

function capture(): {
  io: { out: (l: string) => void; err: (l: string) => void };
  out: string[];
  err: string[];
} {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (l) => out.push(l), err: (l) => err.push(l) }, out, err };
}

describe.skipIf(!hasX)('proctor act / screenshot (needs Xvfb, openbox, xdotool)', () => {
  let d: SandboxDisplay;
  let dir: string;
  beforeAll(async () => {
    d = await startDisplay({ width: 800, height: 600 });
    dir = mkdtempSync(join(tmpdir(), 'proctor-cli-'));
  });
  afterAll(async () => {
    await d?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('performs pyautogui code on the given display and prints each action', async () => {
    const c = capture();
    const code = await main(
      [
        'act',
        '--display',
        d.display,
        '--code',
        '```python\npyautogui.moveTo(123, 234)\npyautogui.moveRel(10, -4)\n```',
      ],
      c.io,
    );
    expect(code).toBe(0);
    expect(c.out).toHaveLength(2);
    expect(c.out[0]).toContain('123');
    const loc = spawnSync('xdotool', ['getmouselocation'], {
      env: { ...process.env, ...d.env },
      encoding: 'utf8',
    }).stdout;
    expect(loc).toMatch(/x:133 y:230/);
  });

  it('performs a computer_13 action given as JSON', async () => {
    const c = capture();
    expect(
      await main(
        ['act', '--display', d.display, '--json', '{"action_type":"MOVE_TO","x":300,"y":200}'],
        c.io,
      ),
    ).toBe(0);
    expect(
      spawnSync('xdotool', ['getmouselocation'], { env: { ...process.env, ...d.env }, encoding: 'utf8' })
        .stdout,
    ).toMatch(/x:300 y:200/);
  });

  it('refuses hostile code with exit 1, the parser message, and performs nothing', async () => {
    const c = capture();
    const code = await main(
      [
        'act',
        '--display',
        d.display,
        '--code',
        'pyautogui.moveTo(5, 5)\nimport os\nos.system("touch /tmp/pwned")',
      ],
      c.io,
    );
    expect(code).toBe(1);
    expect(c.err.join('\n')).toMatch(/refused: .*line 2/);
    expect(
      spawnSync('xdotool', ['getmouselocation'], { env: { ...process.env, ...d.env }, encoding: 'utf8' })
        .stdout,
    ).not.toMatch(/x:5 y:5 /);
  });

  it('writes a screenshot of the display, resized on request', async () => {
    const c = capture();
    const file = join(dir, 'shot.png');
    expect(await main(['screenshot', '--display', d.display, '-o', file], c.io)).toBe(0);
    expect(await sharp(readFileSync(file)).metadata()).toMatchObject({
      format: 'png',
      width: 800,
      height: 600,
    });
    const half = join(dir, 'half.jpg');
    expect(
      await main(
        ['screenshot', '--display', d.display, '-o', half, '--max-width', '400', '--quality', '60'],
        c.io,
      ),
    ).toBe(0);
    expect(await sharp(readFileSync(half)).metadata()).toMatchObject({
      format: 'jpeg',
      width: 400,
      height: 300,
    });
  });

  it('drives the environment --env names: a fresh sandbox display at the spec size', async () => {
    const c = capture();
    const file = join(dir, 'env.png');
    expect(await main(['screenshot', '--env', 'local:640x480', '-o', file], c.io)).toBe(0);
    expect(await sharp(readFileSync(file)).metadata()).toMatchObject({
      format: 'png',
      width: 640,
      height: 480,
    });
    expect(c.out.join('\n')).toMatch(/640x480 png of :\d+/);
  });

  it('is a usage error to give an unknown kind, a bad size, or the size twice', async () => {
    const c = capture();
    expect(await main(['act', '--env', 'lokal', '--code', 'pyautogui.moveTo(1, 1)'], c.io)).toBe(2);
    expect(c.err.join('\n')).toMatch(/--env: unknown environment kind 'lokal' \(closest known: 'local'\)/);
    expect(await main(['screenshot', '--env', 'local:tiny', '-o', join(dir, 'x.png')], c.io)).toBe(2);
    expect(
      await main(['screenshot', '--env', 'local:640x480', '--width', '800', '-o', join(dir, 'x.png')], c.io),
    ).toBe(2);
    expect(c.err.join('\n')).toMatch(/give the screen size once/);
  });

  it('is a usage error to name no action or an odd display', async () => {
    const c = capture();
    expect(await main(['act', '--display', d.display], c.io)).toBe(2);
    expect(await main(['screenshot', '--display', 'nope', '-o', 'x.png'], c.io)).toBe(2);
  });

  it('works from any folder: the display worker finds its TypeScript loader from the project, not the current folder', () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'proctor-elsewhere-'));
    const bin = join(__dirname, '../../../../bin/proctor.mjs');
    const r = spawnSync(process.execPath, [bin, 'screenshot', '-o', 'shot.png', '--display', d.display], {
      cwd: elsewhere,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(r.stderr).not.toMatch(/ERR_MODULE_NOT_FOUND/);
    expect(r.status, r.stderr).toBe(0);
    expect(readFileSync(join(elsewhere, 'shot.png')).subarray(1, 4).toString()).toBe('PNG');
    rmSync(elsewhere, { recursive: true, force: true });
  });
});
