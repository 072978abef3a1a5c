// The desktop getters against a local environment on a sandbox display with real applications: a VTE terminal
// (sakura) for vm_terminal_output, mousepad (GTK) resized with xdotool for vm_window_size and read over AT-SPI for
// accessibility_tree, and the wallpaper set through gsettings (dconf) as OSWorld's guests keep it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalEnvironment, type LocalEnvironment } from '../../env/local/local-environment';
import { hasDisplayTools, hasMousepad } from '../../env/local/testing/apps';
import { createShellEnvironment } from '../../env/local/shell-environment';
import { getterNeedsOf, getters, metrics } from '../catalog';
import type { GradingContext } from '../getter';
import type { Task } from '../../../shared/task';
import { removeTree } from '../../env/remove-tree';
import { poll } from '../../env/local/testing/poll';

const has = (cmd: string): boolean => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
const canRun = hasDisplayTools && hasMousepad;
/** sakura: a small VTE terminal (xterm has no accessibility tree), Debian package `sakura`. */
const hasSakura = has('sakura');

const until = <T>(what: string, probe: () => Promise<T | undefined>, ms = 20_000): Promise<T> =>
  poll(what, ms, probe, 200);

describe.skipIf(!canRun)('desktop getters on a sandbox display (sakura, mousepad, gsettings)', () => {
  let env: LocalEnvironment;
  let ctx: GradingContext;
  let dir: string;
  const get = (spec: Record<string, unknown>) =>
    getters.require(String(spec.type))({ type: String(spec.type), ...spec }, ctx);
  const windowOf = async (cls: string): Promise<string> =>
    until(
      `a ${cls} window`,
      async () =>
        (await env.run(['xdotool', 'search', '--onlyvisible', '--class', cls])).stdout
          .trim()
          .split('\n')
          .filter(Boolean)[0],
    );

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'proctor-desktop-getters-'));
    env = await createLocalEnvironment({ width: 1024, height: 768 });
    ctx = { env, task: { dir, file: join(dir, 't.json') } as Task, cacheDir: join(dir, 'cache') };
    await env.putFile('/home/user/notes.txt', Buffer.from('Proctor was here\n'));
    await env.launch(['mousepad', '/home/user/notes.txt']);
    await windowOf('mousepad');
  }, 60_000);
  afterAll(async () => {
    await env?.close();
    await removeTree(dir);
  });

  it('are in the os family with what they need', () => {
    expect(getterNeedsOf('vm_terminal_output')).toEqual({ family: 'os', needs: ['accessibility'] });
    expect(getterNeedsOf('accessibility_tree')?.needs).toEqual(['accessibility']);
    expect(getterNeedsOf('vm_window_size')?.needs).toEqual(['commands']);
    expect(getterNeedsOf('vm_wallpaper')?.needs).toEqual(['commands', 'files']);
  });

  it('vm_window_size reads the size xdotool gave the window, by class name ignoring case; none for an unknown class', async () => {
    const id = await windowOf('mousepad');
    await env.run(['xdotool', 'windowsize', '--sync', id, '500', '300']);
    const size = await until('the resize', async () => {
      const s = (await get({ type: 'vm_window_size', app_class_name: 'MOUSEPAD' })) as
        { width: number; height: number } | undefined;
      return s && s.width === 500 ? s : undefined;
    });
    expect(size).toEqual({ width: 500, height: 300 });
    await env.run(['xdotool', 'windowsize', '--sync', id, '640', '420']);
    expect(
      await until('the second resize', async () => {
        const s = (await get({ type: 'vm_window_size', app_class_name: 'mousepad' })) as
          { width: number } | undefined;
        return s?.width === 640 ? s : undefined;
      }),
    ).toEqual({ width: 640, height: 420 });
    expect(await get({ type: 'vm_window_size', app_class_name: 'no-such-app' })).toBeUndefined();
  }, 60_000);

  it('accessibility_tree gives OSWorld XML that check_accessibility_tree reads', async () => {
    const xml = await until('mousepad in the tree', async () => {
      const x = (await get({ type: 'accessibility_tree' })) as string;
      return x.includes('Proctor was here') ? x : undefined;
    });
    expect(xml.startsWith('<desktop-frame ')).toBe(true);
    expect(xml).toContain('xmlns:st="https://accessibility.ubuntu.example.org/ns/state"');
    const check = metrics.require('check_accessibility_tree');
    const rule = (text: string, exact: boolean) => [
      { selectors: ['application[name=mousepad] frame[st|active=true] text'], text, exact },
    ];
    expect((await check(xml, rule('Proctor was here\n', true), {}, ctx)).score).toBe(1);
    expect(
      (
        await check(
          xml,
          [
            {
              xpath: "//application[@name='mousepad']//text[@st:editable='true']",
              text: 'Proctor was here\n',
              exact: true,
            },
          ],
          {},
          ctx,
        )
      ).score,
    ).toBe(1);
    expect((await check(xml, rule('Proctor was not here', true), {}, ctx)).score).toBe(0);
    expect((await check(xml, [{ selectors: ['application[name=gedit] text'] }], {}, ctx)).score).toBe(0);
    const fuzzy = (await check(xml, rule('Proctor was there', false), {}, ctx)).score;
    expect(fuzzy).toBeGreaterThan(0.8);
    expect(fuzzy).toBeLessThan(1);
    // the forms of OSWorld's Thunderbird rules: contains() over text() and @name joined by `or`, :contains() in CSS
    const found = async (rules: unknown[]) => (await check(xml, rules, {}, ctx)).score;
    expect(
      await found([
        {
          xpath:
            "//application[@name='mousepad']//*[contains(text(), 'Proctor was here') or contains(@name, 'Proctor was here')]",
        },
      ]),
    ).toBe(1);
    expect(
      await found([
        {
          xpath:
            "//application[@name='mousepad']//*[contains(text(), 'Proctor was not here') or contains(@name, 'Proctor was not here')]",
        },
      ]),
    ).toBe(0);
    expect(
      await found([
        { xpath: "//application[@name='mousepad']//frame[@st:active='true'][contains(@name, 'notes.txt')]" },
      ]),
    ).toBe(1);
    expect(
      await found([
        { selectors: ['application[name=mousepad] frame[st|active=true] text:contains("PROCTOR WAS HERE")'] },
      ]),
    ).toBe(1);
    expect(
      await found([
        { selectors: ['application[name=mousepad] frame[st|active=true] text:contains("proctor was gone")'] },
      ]),
    ).toBe(0);
    expect(
      await found([
        { selectors: ['application[name=mousepad] frame[st|active=true] text:not([st|editable])'] },
      ]),
    ).toBe(0);
  }, 60_000);

  it.skipIf(!hasSakura)(
    'vm_terminal_output reads the focused terminal of the active window, trailing blank lines cut; none once another window is active',
    async () => {
      await env.launch(['sakura', '-x', 'sh -c "echo proctor-terminal-marker; exec sh"']);
      const id = await windowOf('sakura');
      await env.activateWindow('sakura', { byClass: true });
      const out = await until('the terminal text', async () => {
        const t = await get({ type: 'vm_terminal_output' });
        return typeof t === 'string' && t.includes('proctor-terminal-marker') ? t : undefined;
      });
      expect(out.split('\n')[0]).toBe('proctor-terminal-marker');
      expect(out).toBe(out.trimEnd());
      // mousepad in front: no terminal in the active frame
      await env.activateWindow('mousepad', { byClass: true });
      expect(
        await until('sakura to lose focus', async () =>
          (await get({ type: 'vm_terminal_output' })) === undefined ? true : undefined,
        ),
      ).toBe(true);
      await env.run(['xdotool', 'windowclose', id]);
    },
    60_000,
  );

  it.skipIf(!has('gsettings') || !has('convert'))(
    'vm_wallpaper copies the picture gsettings names, and writes an empty file when it is gone',
    async () => {
      const png = join(dir, 'wall.png');
      execFileSync('convert', ['-size', '64x48', 'gradient:red-blue', png]);
      await env.putFile('/home/user/Pictures/wall.png', readFileSync(png));
      await env.run([
        'gsettings',
        'set',
        'org.gnome.desktop.background',
        'picture-uri',
        'file:///home/user/Pictures/wall.png',
      ]);
      const got = (await get({ type: 'vm_wallpaper', dest: 'wallpaper.png' })) as string;
      expect(readFileSync(got)).toEqual(readFileSync(png));
      await env.run([
        'gsettings',
        'set',
        'org.gnome.desktop.background',
        'picture-uri',
        'file:///home/user/Pictures/gone.png',
      ]);
      const empty = (await get({ type: 'vm_wallpaper', dest: 'wallpaper2.png' })) as string;
      expect(statSync(empty).size).toBe(0);
    },
    60_000,
  );
});

describe('desktop getters without a display', () => {
  it('accessibility_tree and vm_terminal_output name the missing capability', async () => {
    const env = await createShellEnvironment();
    const ctx = {
      env,
      task: { dir: tmpdir(), file: join(tmpdir(), 't.json') } as Task,
      cacheDir: join(tmpdir(), 'unused'),
    };
    try {
      await expect(
        getters.require('accessibility_tree')({ type: 'accessibility_tree' }, ctx),
      ).rejects.toThrow(/accessibility/);
      await expect(
        getters.require('vm_terminal_output')({ type: 'vm_terminal_output' }, ctx),
      ).rejects.toThrow(/accessibility/);
    } finally {
      await env.close();
    }
  });
});
