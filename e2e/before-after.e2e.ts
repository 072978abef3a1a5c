// Before / after in Chromium: pressing b in a replay shows the screen the agent acted on beside the screen after,
// each at least 45 % of the window wide (not three thumbnails); a click or z enlarges one, Esc shrinks it, and
// b closes the view again.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { artefactsDir, chromiumMissing, useWorkbench } from './support/serve';
import { writeSyntheticRun, type SyntheticRun } from './support/synthetic-run';

const VIEWPORT = { width: 1400, height: 900 };

const widthOf = (page: Page, testId: string) =>
  page.evaluate((id) => {
    const img = document.querySelector(`[data-testid="${id}"]`) as HTMLImageElement | null;
    return img && img.complete && img.naturalWidth ? img.getBoundingClientRect().width : 0;
  }, testId);

describe.skipIf(chromiumMissing)(
  `before / after in Chromium${chromiumMissing ? ` (skipped: ${chromiumMissing})` : ''}`,
  () => {
    let run: SyntheticRun;
    const w = useWorkbench('before-after', async (root) => {
      run = await writeSyntheticRun({ out: join(root, 'results'), tasks: 1, steps: 3 });
      // the screen size as the scheduler records it (the synthetic writer leaves it out)
      const manifest = join(run.runDir, 'manifest.json');
      writeFileSync(
        manifest,
        JSON.stringify({
          ...JSON.parse(readFileSync(manifest, 'utf8')),
          screen: { width: 1280, height: 720 },
        }),
      );
    });

    it("shows the run's screen size among its facts", async () => {
      const page = await w.browser.newPage({ viewport: VIEWPORT });
      await page.goto(`${w.served.url}#/runs/${encodeURIComponent(`results/${run.runId}`)}`);
      await expect
        .poll(() => page.getByTestId('run-screen').textContent(), { timeout: 30_000 })
        .toBe('1280×720');
      await page.close();
    });

    it('shows before and after side by side, each ≥ 45 % of the window, zoomable with the mouse and the keyboard', async () => {
      const page = await w.browser.newPage({ viewport: VIEWPORT });
      await page.goto(
        `${w.served.url}#/runs/${encodeURIComponent(`results/${run.runId}`)}?task=${encodeURIComponent(run.taskKeys[0])}&step=2`,
      );
      await page.waitForFunction(
        () =>
          (document.querySelector('[data-testid="step-image"]') as HTMLImageElement | null)?.complete ===
          true,
        null,
        { timeout: 30_000 },
      );
      await page.keyboard.press('b');
      await expect.poll(() => widthOf(page, 'before-image'), { timeout: 15_000 }).toBeGreaterThan(0);
      await expect.poll(() => widthOf(page, 'after-image')).toBeGreaterThan(0);
      const before = await widthOf(page, 'before-image');
      const after = await widthOf(page, 'after-image');
      expect(before).toBeGreaterThanOrEqual(0.45 * VIEWPORT.width);
      expect(after).toBeGreaterThanOrEqual(0.45 * VIEWPORT.width);
      // side by side: the after picture starts right of the before picture, on the same row
      const boxes = await page.evaluate(() =>
        ['before-image', 'after-image'].map((id) => {
          const r = document.querySelector(`[data-testid="${id}"]`)!.getBoundingClientRect();
          return { left: r.left, right: r.right, top: r.top };
        }),
      );
      expect(boxes[1].left).toBeGreaterThanOrEqual(boxes[0].right);
      expect(Math.abs(boxes[1].top - boxes[0].top)).toBeLessThan(2);
      // the action the agent took is drawn on the before picture
      expect(
        await page.getByTestId('before-after').locator('[data-testid="click-mark"]').getAttribute('data-x'),
      ).toBe(String(run.clickOf(2).x));
      await page.screenshot({ path: resolve(artefactsDir, 'before-after.png') });

      // a click on the after picture enlarges it past its side-by-side width; Esc brings both back
      await page.getByTestId('after-image').click();
      await expect.poll(() => widthOf(page, 'after-image')).toBeGreaterThan(after * 1.6);
      expect(await page.getByTestId('before-image').count()).toBe(0);
      await page.screenshot({ path: resolve(artefactsDir, 'before-after-zoomed.png') });
      await page.keyboard.press('Escape');
      await expect.poll(() => page.getByTestId('before-image').count()).toBe(1);
      await expect.poll(() => widthOf(page, 'after-image')).toBeLessThan(after + 2);

      // z enlarges the before picture from the keyboard; → still steps while the view is open
      await page.keyboard.press('z');
      await expect.poll(() => widthOf(page, 'before-image')).toBeGreaterThan(before * 1.6);
      await page.keyboard.press('Escape');
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => page.url()).toContain('step=3');
      await expect
        .poll(() => page.getByTestId('before-after').locator('[data-testid="click-mark"]').count())
        .toBe(0); // step 3 is DONE

      // b closes the view; the replay is still there
      await page.keyboard.press('b');
      await expect.poll(() => page.getByTestId('before-after').count()).toBe(0);
      expect(page.url()).toContain(`#/runs/`);
      await page.close();
    });
  },
);
