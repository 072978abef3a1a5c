// Real parts only: a sandbox display (Xvfb + openbox + session bus), Chromium showing a page served on
// 127.0.0.1, mousepad under AT-SPI; boxes are checked against the pixels of a real screen grab.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import sharp from 'sharp';
import { startDisplay, type SandboxDisplay } from '../display';
import type { AccessibilityNode } from '../../environment';
import { collectAccessibility } from './index';
import { collectAtspiTree } from './atspi';
import { CdpConnection, collectChromiumTree } from './cdp';
import { flattenTree } from '../../../observe/filter';
import {
  grabScreen,
  hasChromium,
  hasDisplayTools,
  hasMousepad,
  serveFixturePage,
  startChromium,
  startMousepad,
  xdotool,
  type Chromium,
  type Served,
} from '../testing/apps';

const canRun = hasDisplayTools && hasChromium && hasMousepad;
const NOTE = 'Proctor was here\nsecond line';

let display: SandboxDisplay;
let page: Served;
let chromium: Chromium;
let mousepad: Awaited<ReturnType<typeof startMousepad>>;

const find = (nodes: AccessibilityNode[], pred: (n: AccessibilityNode) => boolean) =>
  flattenTree(nodes).filter(pred);
const one = (nodes: AccessibilityNode[], role: string, name: string) => {
  const hits = find(nodes, (n) => n.role === role && n.name === name);
  expect(hits, `${role} "${name}"`).toHaveLength(1);
  return hits[0];
};

/** Bounding box of the pixels of one exact colour in the screen grab. */
async function colourBox(png: Buffer, rgb: [number, number, number]) {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  let x0 = Infinity, y0 = Infinity, x1 = -1, y1 = -1; // prettier-ignore
  for (let y = 0; y < info.height; y++)
    for (let x = 0; x < info.width; x++) {
      const i = (y * info.width + x) * info.channels;
      if (data[i] === rgb[0] && data[i + 1] === rgb[1] && data[i + 2] === rgb[2]) {
        x0 = Math.min(x0, x);
        y0 = Math.min(y0, y);
        x1 = Math.max(x1, x);
        y1 = Math.max(y1, y);
      }
    }
  return { x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 };
}

describe.skipIf(!canRun)(
  'accessibility trees on a real display (needs Xvfb, openbox, dbus, chromium, mousepad, at-spi2-core)',
  () => {
    beforeAll(async () => {
      display = await startDisplay({ width: 1600, height: 900 });
      page = await serveFixturePage();
      mousepad = await startMousepad(display.env, NOTE);
      xdotool(
        display.env,
        'search',
        '--onlyvisible',
        '--name',
        'notes.txt',
        'windowmove',
        '%@',
        '1000',
        '100',
      );
      chromium = await startChromium(display.env, page.url, { position: [30, 20], size: [900, 700] });
    }, 60_000);

    afterAll(async () => {
      await chromium?.stop();
      await mousepad?.stop();
      await page?.close();
      await display?.stop();
    });

    describe('collectChromiumTree', () => {
      it('finds the page elements at the screen boxes where their pixels are', async () => {
        const roots = await collectChromiumTree(chromium.endpoint);
        expect(roots.map((r) => [r.role, r.name])).toEqual([['document-web', 'Proctor fixture page']]);
        const go = one(roots, 'push-button', 'Go now');
        const grab = await grabScreen(display.env);
        // the red button as the screen shows it
        expect(go).toMatchObject(await colourBox(grab.data, [255, 0, 0]));
        expect(go).toMatchObject({ width: 120, height: 40 });
        // the others sit where the page put them, relative to the button
        const entry = one(roots, 'entry', 'Your name');
        expect([entry.x - go.x, entry.y - go.y, entry.width, entry.height]).toEqual([200, 10, 200, 30]);
        const box = one(roots, 'check-box', 'I agree');
        expect([box.x - go.x, box.y - go.y, box.width, box.height]).toEqual([200, 150, 20, 20]);
        const link = one(roots, 'link', 'Read more');
        expect([link.x - go.x, link.y - go.y]).toEqual([0, 150]);
        expect(link.width).toBeGreaterThan(40);
      });

      it('reports text, values and states the way the filter reads them', async () => {
        const roots = await collectChromiumTree(chromium.endpoint);
        const entry = one(roots, 'entry', 'Your name');
        expect(entry.text).toBe('hello');
        expect(entry.states).toEqual(
          expect.arrayContaining(['enabled', 'editable', 'focusable', 'showing', 'visible']),
        );
        expect(entry.children).toBeUndefined(); // the inner editor does not repeat the value
        expect(one(roots, 'check-box', 'I agree').states).toEqual(
          expect.arrayContaining(['checkable', 'enabled']),
        );
        expect(one(roots, 'link', 'Read more').text).toBe('Read more');
        const para = find(roots, (n) => n.role === 'paragraph');
        expect(para.map((p) => p.text)).toEqual(['Some paragraph text']);
        expect(find(roots, (n) => n.role === 'static' && n.text === 'Go now')).toEqual([]);
        for (const n of flattenTree(roots)) expect(n.source).toBe('cdp');
      });

      it('follows scrolling: what left the viewport is not showing, what came in moved up', async () => {
        const cdp = await CdpConnection.open(chromium.endpoint);
        const scroll = async (y: number) => {
          const { targetInfos } = await cdp.send<{ targetInfos: { targetId: string; type: string }[] }>(
            'Target.getTargets',
          );
          const target = targetInfos.find((t) => t.type === 'page')!;
          const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', {
            targetId: target.targetId,
            flatten: true,
          });
          await cdp.send(
            'Runtime.evaluate',
            {
              expression: `window.scrollTo(0, ${y}); new Promise(r => requestAnimationFrame(() => r(window.scrollY)))`,
              awaitPromise: true,
            },
            sessionId,
          );
          await cdp.send('Target.detachFromTarget', { sessionId });
        };
        try {
          const before = await collectChromiumTree(chromium.endpoint);
          const lowBefore = one(before, 'push-button', 'Low button');
          await scroll(300);
          const after = await collectChromiumTree(chromium.endpoint);
          expect(one(after, 'push-button', 'Go now').states).not.toContain('showing');
          const low = one(after, 'push-button', 'Low button');
          expect(low.states).toContain('showing');
          expect([low.x, low.y]).toEqual([lowBefore.x, lowBefore.y - 300]);
          expect(low).toMatchObject(await colourBox((await grabScreen(display.env)).data, [0, 255, 0]));
        } finally {
          await scroll(0);
          cdp.close();
        }
      });

      it('leaves out background tabs unless asked', async () => {
        const cdp = await CdpConnection.open(chromium.endpoint);
        const { targetId } = await cdp.send<{ targetId: string }>('Target.createTarget', {
          url: 'about:blank#hidden',
          background: true,
        });
        try {
          const visible = await collectChromiumTree(chromium.endpoint);
          expect(visible.map((r) => r.name)).toEqual(['Proctor fixture page']);
          const all = await collectChromiumTree(chromium.endpoint, { hiddenPages: true });
          expect(all).toHaveLength(2);
          expect(find(all, (n) => n.role === 'document-web' && n.states.includes('showing'))).toHaveLength(1);
        } finally {
          await cdp.send('Target.closeTarget', { targetId });
          cdp.close();
        }
      });

      it('names the endpoint when there is no browser there', async () => {
        await expect(collectChromiumTree('http://127.0.0.1:9', { timeoutMs: 2000 })).rejects.toThrow(
          /127\.0\.0\.1:9/,
        );
      });
    });

    describe('collectAtspiTree', () => {
      it("reads mousepad's text area and menus with screen boxes inside its window", async () => {
        const apps = await collectAtspiTree({ dbusAddress: display.dbusAddress! });
        const app = apps.find((a) => a.name === 'mousepad');
        expect(app, `applications: ${apps.map((a) => a.name).join(', ')}`).toBeDefined();
        expect(app!.role).toBe('application');
        const id = xdotool(display.env, 'search', '--onlyvisible', '--name', 'notes.txt')
          .trim()
          .split('\n')[0];
        const info = spawnSync('xwininfo', ['-id', id], {
          env: { ...process.env, ...display.env },
          encoding: 'utf8',
        }).stdout;
        const [wx, wy, ww, wh] = [
          /Absolute upper-left X:\s+(-?\d+)/,
          /Absolute upper-left Y:\s+(-?\d+)/,
          /Width:\s+(\d+)/,
          /Height:\s+(\d+)/,
        ].map((re) => Number(re.exec(info)![1]));

        const text = find([app!], (n) => n.role === 'text' && n.text === NOTE);
        expect(text).toHaveLength(1);
        expect(text[0].states).toEqual(
          expect.arrayContaining(['editable', 'showing', 'visible', 'focusable']),
        );
        const inside = (n: AccessibilityNode) =>
          n.x >= wx - 1 && n.y >= wy - 1 && n.x + n.width <= wx + ww + 1 && n.y + n.height <= wy + wh + 1;
        expect(inside(text[0]), JSON.stringify({ text: text[0], wx, wy, ww, wh })).toBe(true);
        const menus = find([app!], (n) => n.role === 'menu' && n.states.includes('showing'));
        expect(menus.map((m) => m.name)).toEqual(expect.arrayContaining(['File', 'Edit', 'Help']));
        for (const m of menus)
          expect(inside(m) && m.width > 0 && m.height > 0, JSON.stringify({ m, wx, wy, ww, wh })).toBe(true);
        for (const n of flattenTree([app!])) expect(n).toMatchObject({ source: 'atspi', app: 'mousepad' });
      });

      it('sees the menu items of a menu opened by clicking at the File box', async () => {
        const apps = await collectAtspiTree({ dbusAddress: display.dbusAddress! });
        const file = one(
          apps.filter((a) => a.name === 'mousepad'),
          'menu',
          'File',
        );
        const closed = find(apps, (n) => n.role === 'menu-item' && n.states.includes('showing'));
        expect(closed).toEqual([]);
        xdotool(
          display.env,
          'mousemove',
          String(file.x + file.width / 2),
          String(file.y + file.height / 2),
          'click',
          '1',
        );
        try {
          let items: AccessibilityNode[] = [];
          for (let i = 0; i < 30 && items.length === 0; i++) {
            await new Promise((r) => setTimeout(r, 150));
            const open = await collectAtspiTree({ dbusAddress: display.dbusAddress! });
            items = find(
              open,
              (n) => n.role.endsWith('menu-item') && n.states.includes('showing') && n.name !== '',
            );
          }
          expect(items.length).toBeGreaterThan(3);
          // the items drop down below the File menu
          for (const item of items) expect(item.y).toBeGreaterThanOrEqual(file.y + file.height - 2);
        } finally {
          xdotool(display.env, 'key', 'Escape');
        }
      });

      it('stops at the node cap and at the time budget, and leaves out skipped applications', async () => {
        const capped = await collectAtspiTree({ dbusAddress: display.dbusAddress!, maxNodes: 5 });
        expect(flattenTree(capped).length).toBeLessThanOrEqual(5);
        const full = flattenTree(await collectAtspiTree({ dbusAddress: display.dbusAddress! })).length;
        const started = Date.now();
        const hurried = await collectAtspiTree({ dbusAddress: display.dbusAddress!, timeoutMs: 25 });
        expect(Date.now() - started).toBeLessThan(1000); // the budget holds: what was read by then comes back
        expect(flattenTree(hurried).length).toBeLessThan(full);
        const skipped = await collectAtspiTree({ dbusAddress: display.dbusAddress!, skipApps: ['MOUSEPAD'] });
        expect(skipped.map((a) => a.name)).not.toContain('mousepad');
      });

      it('fails naming the bus when there is no session bus there', async () => {
        await expect(
          collectAtspiTree({ dbusAddress: 'unix:path=/nonexistent/bus', timeoutMs: 1000 }),
        ).rejects.toThrow(/unix:path=\/nonexistent\/bus/);
      });
    });

    describe('collectAccessibility', () => {
      it("merges mousepad's AT-SPI tree with the page's CDP tree, leaving out Chromium's own AT-SPI nodes", async () => {
        const errors: string[] = [];
        const roots = await collectAccessibility({
          dbusAddress: display.dbusAddress,
          cdpEndpoint: chromium.endpoint,
          onError: (source, e) => errors.push(`${source}: ${e.message}`),
        });
        expect(errors).toEqual([]);
        expect(roots.map((r) => r.name)).toEqual(
          expect.arrayContaining(['mousepad', 'Proctor fixture page']),
        );
        expect(roots.filter((r) => r.source === 'atspi' && /chrom/i.test(r.name))).toEqual([]);
        expect(find(roots, (n) => n.role === 'push-button' && n.name === 'Go now')).toHaveLength(1);
        expect(find(roots, (n) => n.role === 'text' && n.text === NOTE)).toHaveLength(1);
      });

      it('still returns one source when the other fails, and says which failed', async () => {
        const errors: string[] = [];
        const roots = await collectAccessibility({
          dbusAddress: display.dbusAddress,
          cdpEndpoint: 'http://127.0.0.1:9',
          timeoutMs: 2000,
          onError: (source) => errors.push(source),
        });
        expect(errors).toEqual(['cdp']);
        expect(roots.map((r) => r.name)).toContain('mousepad');
        await expect(
          collectAccessibility({ cdpEndpoint: 'http://127.0.0.1:9', timeoutMs: 2000 }),
        ).rejects.toThrow(/every source failed/);
      });
    });
  },
);
