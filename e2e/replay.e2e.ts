// Replay, run table, OSWorld folders, labels and live runs in Debian Chromium against `proctor serve`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { artefactsDir, chromiumMissing, useWorkbench } from './support/serve';
import { writeSyntheticRun, type SyntheticRun } from './support/synthetic-run';
import { localCaller } from '../src/main/annotate/team';

/** Centre of the click mark relative to the displayed image, and where the action says it should be. */
async function markAgainstAction(page: Page, width: number) {
  return page.evaluate((screenWidth) => {
    const img = document.querySelector('[data-testid="step-image"]') as HTMLImageElement;
    const mark = document.querySelector('[data-testid="click-mark"] circle') as SVGCircleElement;
    const g = mark.parentElement!;
    const ib = img.getBoundingClientRect();
    const mb = mark.getBoundingClientRect();
    const scale = ib.width / screenWidth;
    return {
      drawn: { x: mb.left + mb.width / 2 - ib.left, y: mb.top + mb.height / 2 - ib.top },
      expected: { x: Number(g.dataset.x) * scale, y: Number(g.dataset.y) * scale },
      shownWidth: ib.width,
    };
  }, width);
}

describe.skipIf(chromiumMissing)(
  `replay in Chromium${chromiumMissing ? ` (skipped: ${chromiumMissing})` : ''}`,
  () => {
    let run: SyntheticRun;
    const w = useWorkbench('replay', async (root) => {
      run = await writeSyntheticRun({ out: join(root, 'results'), tasks: 3, steps: 5 });
      // An OSWorld result folder as OSWorld itself writes it.
      const osw = join(
        root,
        'osworld',
        'pyautogui',
        'screenshot',
        'gpt-4o',
        'chrome',
        'bb5e4c0d-f964-439c-97b6-bdb9747de3f4',
      );
      mkdirSync(osw, { recursive: true });
      const png = await sharp({ create: { width: 1920, height: 1080, channels: 3, background: '#88aacc' } })
        .png()
        .toBuffer();
      writeFileSync(join(osw, 'step_1_20240317@154431.png'), png);
      writeFileSync(join(osw, 'step_2_20240317@154433123456.png'), png);
      writeFileSync(
        join(osw, 'traj.jsonl'),
        [
          {
            step_num: 1,
            action_timestamp: '20240317@154431',
            action: 'pyautogui.click(960, 540)',
            reward: 0,
            done: false,
            info: {},
            screenshot_file: 'step_1_20240317@154431.png',
          },
          {
            step_num: 2,
            action_timestamp: '20240317@154433123456',
            action: 'DONE',
            response: 'done',
            reward: 0,
            done: true,
            info: {},
            screenshot_file: 'step_2_20240317@154433123456.png',
          },
        ]
          .map((l) => JSON.stringify(l))
          .join('\n') + '\n',
      );
      writeFileSync(join(osw, 'result.txt'), '1.0\n');
    });

    it('lists runs, shows the success rate over all tasks, and opens a replay', async () => {
      const page = await w.browser.newPage({ viewport: { width: 1500, height: 950 } });
      await page.goto(`${w.served.url}#/runs`);
      await expect.poll(() => page.getByTestId('run-row').count(), { timeout: 30_000 }).toBe(2);
      await page.getByTestId('run-row').filter({ hasText: run.runId }).click();
      await expect.poll(() => page.getByTestId('success-rate').textContent()).toMatch(/success 33\.3%/);
      expect(await page.getByTestId('run-task-row').count()).toBe(3);
      await page.screenshot({ path: resolve(artefactsDir, 'run-table.png') });
      // the breakdown bars: synthetic tasks 1..3 are easy/medium/hard, only the first passes
      await page.getByTestId('breakdown').locator('summary').click();
      await expect
        .poll(() => page.getByTestId('breakdown').textContent())
        .toMatch(/easy100\.0% of 1.*medium0\.0% of 1.*hard0\.0% of 1/s);
      await page.screenshot({ path: resolve(artefactsDir, 'run-breakdown.png') });
      await page.getByLabel('score').selectOption('pass');
      await expect.poll(() => page.getByTestId('shown-count').textContent()).toBe('1 of 3');
      expect(page.url()).toContain('score=pass');
      await page.getByLabel('score').selectOption('');
      await expect.poll(() => page.getByTestId('shown-count').textContent()).toBe('3 of 3');
      await page.getByTestId('run-task-row').first().click();
      await expect.poll(() => page.getByTestId('step-list').locator('li').count()).toBe(5);
    });

    it('draws the click mark at the action coordinates, steps with the keyboard, and toggles SoM', async () => {
      const page = await w.browser.newPage({ viewport: { width: 1500, height: 950 } });
      await page.goto(
        `${w.served.url}#/runs/${encodeURIComponent(`results/${run.runId}`)}?task=${encodeURIComponent(run.taskKeys[0])}&step=1`,
      );
      await page.waitForFunction(
        () =>
          (document.querySelector('[data-testid="step-image"]') as HTMLImageElement | null)?.complete ===
          true,
        null,
        { timeout: 30_000 },
      );
      for (const step of [1, 2, 3]) {
        await expect
          .poll(() => page.locator('[data-testid="click-mark"]').getAttribute('data-x'))
          .toBe(String(run.clickOf(step).x));
        const m = await markAgainstAction(page, 1280);
        expect(m.shownWidth).toBeLessThan(1280); // the image is scaled down, the mark with it
        expect(Math.abs(m.drawn.x - m.expected.x)).toBeLessThan(1.5);
        expect(Math.abs(m.drawn.y - m.expected.y)).toBeLessThan(1.5);
        expect(page.url()).toContain(`step=${step}`);
        await page.keyboard.press('ArrowRight');
      }
      await page.keyboard.press('ArrowLeft');
      await expect.poll(() => page.url()).toContain('step=3');
      expect(await page.getByTestId('som-mark').count()).toBe(0);
      await page.keyboard.press('s');
      await expect.poll(() => page.getByTestId('som-mark').count()).toBe(2);
      await page.screenshot({ path: resolve(artefactsDir, 'replay.png') });
      await page.getByTestId('som-toggle').click();
      await expect.poll(() => page.getByTestId('som-mark').count()).toBe(0);
    });

    it("stores a person's label as a verdict and shows it beside the rule score", async () => {
      const page = await w.browser.newPage({ viewport: { width: 1500, height: 950 } });
      await page.goto(
        `${w.served.url}#/runs/${encodeURIComponent(`results/${run.runId}`)}?task=${encodeURIComponent(run.taskKeys[1])}`,
      );
      // the judge's verdict and reason beside the rule score
      await expect
        .poll(() => page.getByTestId('verdicts').textContent(), { timeout: 10_000 })
        .toMatch(/Judge.*yes.*judge-standin.*buttons clicked in order.*The buttons were clicked in order/s);
      // Alone on loopback, the person labelling is the OS user (issue 12: nobody types a name).
      await page.getByRole('button', { name: 'complete', exact: true }).click();
      await expect
        .poll(() => page.getByTestId('verdicts').textContent(), { timeout: 10_000 })
        .toContain(`${localCaller().person}: yes`);
      // rule says 0, the person says yes: a disagreement
      await expect.poll(() => page.getByTestId('verdicts').textContent()).toMatch(/Verdicts disagree/);
    });

    it('opens an OSWorld result folder with its steps and score', async () => {
      const page = await w.browser.newPage({ viewport: { width: 1500, height: 950 } });
      await page.goto(`${w.served.url}#/runs`);
      await expect.poll(() => page.getByTestId('run-row').count(), { timeout: 30_000 }).toBe(2);
      await page.getByTestId('run-row').filter({ hasText: 'osworld' }).click();
      await expect.poll(() => page.getByTestId('run-task-row').count()).toBe(1);
      await page.getByTestId('run-task-row').click();
      await expect.poll(() => page.getByTestId('step-list').locator('li').count()).toBe(2);
      // opened without a step, a finished replay shows the first one (the click); End goes to the last (DONE)
      await expect.poll(() => page.locator('[data-testid="click-mark"]').getAttribute('data-x')).toBe('960');
      await page.keyboard.press('End');
      await expect
        .poll(() => page.getByTestId('step-list').locator('li.current').textContent())
        .toContain('DONE');
      await page.screenshot({ path: resolve(artefactsDir, 'replay-osworld.png') });
    });

    it("shows a live run's steps as they are written by another process", async () => {
      const live = await writeSyntheticRun({ out: join(w.root, 'live'), tasks: 1, steps: 2, keepOpen: true });
      const page = await w.browser.newPage({ viewport: { width: 1500, height: 950 } });
      await page.goto(
        `${w.served.url}#/runs/${encodeURIComponent(`live/${live.runId}`)}?task=${encodeURIComponent(live.taskKeys[0])}`,
      );
      await expect
        .poll(() => page.getByTestId('step-list').locator('li').count(), { timeout: 30_000 })
        .toBe(2);
      // the writer (this test process) adds a task and steps while the page watches
      const key = live.taskKeys[0];
      const { RunWriter } = await import('../src/main/store');
      const again = await RunWriter.open(live.runDir);
      const tw = again.openTask(key);
      const t0 = Date.now();
      await tw.recordStep(
        {
          step: 3,
          at: new Date().toISOString(),
          actions: [{ type: 'click', x: 400, y: 300 }],
          screen: { width: 1280, height: 720 },
        },
        undefined,
        { action: 'pyautogui.click(400, 300)' },
      );
      await expect
        .poll(() => page.getByTestId('step-list').locator('li').count(), { timeout: 15_000, interval: 50 })
        .toBe(3);
      const seenAfter = Date.now() - t0;
      expect(seenAfter).toBeLessThan(2_000);
      tw.close();
    });
  },
);
