// observe() over the real local environment (sandbox display, capture worker) with Chromium showing a page on
// 127.0.0.1; the accessibility tree comes from collectAccessibility over that display's buses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { MissingCapabilityError, type Environment } from '../env/environment';
import { createLocalEnvironment, type LocalEnvironment } from '../env/local/local-environment';
import { CUT_MARK, MARKED_TABLE_HEADER, TABLE_HEADER } from './linearise';
import { observe } from './index';
import { markColour } from './set-of-mark';
import {
  hasChromium,
  hasDisplayTools,
  serveFixturePage,
  startChromiumIn,
  type Served,
} from '../env/local/testing/apps';

let local: LocalEnvironment;
let env: Environment;
let page: Served;

/** The local environment as one that cannot read accessibility trees. */
function withoutAccessibility(base: LocalEnvironment): Environment {
  return Object.assign(Object.create(base) as Environment, {
    capabilities: new Set([...base.capabilities].filter((c) => c !== 'accessibility')),
  });
}

describe.skipIf(!(hasDisplayTools && hasChromium))(
  'observe on a real display (needs Xvfb, openbox, dbus, xdotool, chromium)',
  () => {
    beforeAll(async () => {
      local = await createLocalEnvironment({ width: 1280, height: 800 });
      page = await serveFixturePage();
      // Chromium inside the environment's sandbox session, as a task's setup starts it.
      local.setBrowserEndpoint!(
        (await startChromiumIn(local, page.url, { position: [0, 0], size: [1000, 760] })).endpoint,
      );
      env = local;
    }, 60_000);

    afterAll(async () => {
      await page?.close();
      await local?.close();
    });

    it('screenshot: the screen only, no table, no bindings', async () => {
      const o = await observe(env, 'screenshot');
      expect(o.type).toBe('screenshot');
      expect(o.screenshot).toMatchObject({ width: 1280, height: 800, format: 'png' });
      expect(o.a11yTable).toBeUndefined();
      expect(o.bindings).toEqual({});
    });

    it('a11y_tree: the filtered table without a screenshot, rows at screen positions', async () => {
      const o = await observe(env, 'a11y_tree');
      expect(o.screenshot).toBeUndefined();
      const rows = o.a11yTable!.split('\n');
      expect(rows[0]).toBe(TABLE_HEADER);
      const go = rows.find((r) => r.startsWith('push-button\tGo now\t'));
      expect(go).toBeDefined();
      const node = o.a11yNodes!.find((n) => n.name === 'Go now')!;
      expect(go).toContain(`\t(${node.x}, ${node.y})\t(120, 40)`);
      expect(rows.some((r) => r.startsWith('entry\tYour name\thello\t'))).toBe(true);
    });

    it('screenshot_a11y_tree: both', async () => {
      const o = await observe(env, 'screenshot_a11y_tree');
      expect(o.screenshot?.width).toBe(1280);
      expect(o.a11yTable?.split('\n')[0]).toBe(TABLE_HEADER);
    });

    it('som: numbered boxes on the screenshot, the same numbers in the table, tag_N at the element centre', async () => {
      const o = await observe(env, 'som');
      const marks = o.som!.marks;
      const rows = o.a11yTable!.split('\n');
      expect(rows[0]).toBe(MARKED_TABLE_HEADER);
      const goRow = rows.find((r) => r.split('\t')[1] === 'push-button' && r.split('\t')[2] === 'Go now')!;
      const id = Number(goRow.split('\t')[0]);
      const mark = marks.find((m) => m.id === id)!;
      expect(mark.label).toBe('push-button\tGo now');
      // every mark has its row, numbered alike
      expect(rows.length - 1).toBe(marks.length);
      marks.forEach((m, i) =>
        expect(rows[i + 1].split('\t').slice(0, 3).join('\t')).toBe(`${m.id}\t${m.label}`),
      );

      // tag_N is the centre of the mark, on the red button of the untouched screenshot (above its white label)
      const centre = o.bindings[`tag_${id}`];
      expect(o.bindings[`index_${id}`]).toEqual(centre);
      expect(centre).toEqual({ x: mark.x + 60, y: mark.y + 20 });
      const shot = await sharp(o.screenshot!.data).raw().toBuffer({ resolveWithObject: true });
      const at = (buf: { data: Buffer; info: { width: number; channels: number } }, x: number, y: number) => {
        const i = (y * buf.info.width + x) * buf.info.channels;
        return [buf.data[i], buf.data[i + 1], buf.data[i + 2]];
      };
      expect(at(shot, centre.x, mark.y + 4)).toEqual([255, 0, 0]);
      expect(at(shot, mark.x + 2, centre.y)).toEqual([255, 0, 0]);
      // and the SoM image has the mark's colour on the button's left edge, which the screenshot has red
      const tagged = await sharp(o.som!.image.data).raw().toBuffer({ resolveWithObject: true });
      const hex = markColour(id);
      expect(at(tagged, mark.x, centre.y)).toEqual([1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16)));
    });

    it('som: a small token budget cuts the table but keeps every mark and binding', async () => {
      const full = await observe(env, 'som');
      const cut = await observe(env, 'som', { tokenBudget: 60 });
      expect(cut.a11yTable!.split('\n').at(-1)).toBe(CUT_MARK);
      expect(cut.som!.marks.length).toBe(full.som!.marks.length);
      expect(Object.keys(cut.bindings).length).toBe(2 * full.som!.marks.length);
    });

    it('refuses accessibility observations on an environment without accessibility, naming it', async () => {
      const blind = withoutAccessibility(local);
      await expect(observe(blind, 'a11y_tree')).rejects.toBeInstanceOf(MissingCapabilityError);
      await expect(observe(blind, 'som')).rejects.toThrow(/local environment cannot 'accessibility'/);
      await expect(observe(env, 'screen' as never)).rejects.toThrow(/unknown observation type 'screen'/);
    });
  },
);
