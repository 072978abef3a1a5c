// A live demo run started from the UI: steps arrive as they happen, each proposed action waits for a person's
// approval, and the run ends graded. Real serve, real Chromium for the UI, real sandbox display for the task.
import { cpSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { missingDemoPrograms } from '../src/main/demo/testing-env';
import { artefactsDir, chromiumMissing, projectRoot, useWorkbench } from './support/serve';

const missing = [...missingDemoPrograms(), ...(chromiumMissing ? [chromiumMissing] : [])];
const task = 'demo/terminal/246ccb60-7635-46fa-a222-6f4261e826ee';

describe.skipIf(missing.length > 0)(
  `a live run from the UI${missing.length ? ` (skipped: missing ${missing.join(', ')})` : ''}`,
  () => {
    const w = useWorkbench('live', (root) =>
      cpSync(resolve(projectRoot, 'resources/demo'), join(root, 'demo'), { recursive: true }),
    );

    it('refuses an environment spec of an unknown kind, naming the closest kind, and starts nothing', async () => {
      const page = await w.browser.newPage({ viewport: { width: 1500, height: 950 } });
      await page.goto(`${w.served.url}#/runs`);
      await page.getByTestId('start-run').locator('summary').click();
      await page.getByLabel('tasks to run').fill(task);
      await page.getByLabel('environment').fill('lokal');
      await page.getByTestId('start-run-submit').click();
      await expect
        .poll(() => page.getByTestId('start-run').textContent(), { timeout: 15_000 })
        .toMatch(/unknown environment kind 'lokal' \(closest known: 'local'\)/);
      expect(readdirSync(w.root)).not.toContain('results');
    });

    it('starts a demo task with approval of each action, shows each step as it is performed, and grades it', async () => {
      const page = await w.browser.newPage({ viewport: { width: 1500, height: 950 } });
      await page.goto(`${w.served.url}#/runs`);
      await page.getByTestId('start-run').locator('summary').click();
      await page.getByLabel('tasks to run').fill(task);
      await page.getByLabel('agent').selectOption('oracle');
      await page.getByLabel('environment').fill('local:1280x800');
      await page.getByLabel('approve each action').check();
      await page.getByTestId('start-run-submit').click();
      await expect.poll(() => page.getByTestId('run-task-row').count(), { timeout: 30_000 }).toBe(1);
      await page.getByTestId('run-task-row').click();

      // Each proposed action waits; nothing is performed until approved; then its step appears.
      let approved = 0;
      for (let guard = 0; guard < 12; guard++) {
        const panel = page.getByTestId('live-panel');
        const state = await Promise.race([
          panel.waitFor({ timeout: 60_000 }).then(() => 'waiting' as const),
          page
            .waitForFunction(
              () => /success|error|max_steps/.test(document.querySelector('.replay-head')?.textContent ?? ''),
              null,
              { timeout: 60_000 },
            )
            .then(() => 'ended' as const),
        ]);
        if (state === 'ended') break;
        const stepsBefore = await page.getByTestId('step-list').locator('.step-no').count();
        // The person sees the screen the action will act on: this step's own observation, loaded, with the action drawn.
        const shown = page.getByTestId('approval-image');
        await expect
          .poll(() =>
            shown.evaluate(
              (img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth,
            ),
          )
          .toBe(1280);
        const waitingStep = Number((await panel.locator('h3').textContent())?.match(/Step (\d+)/)?.[1]);
        // (stored once: the step's own observation file, or the identical screen after the step before)
        expect(decodeURIComponent((await shown.getAttribute('src')) ?? '')).toMatch(
          new RegExp(`(step_${waitingStep}\\.|step_${waitingStep - 1}_)[^/]*$`),
        );
        if (approved === 0) {
          await page.screenshot({ path: resolve(artefactsDir, 'live-approval.png') });
          // What the person sees is the stored observation's pixels: the shown image against the file, both shrunk.
          const file = join(
            w.root,
            ...new URL((await shown.getAttribute('src'))!, w.served.url).pathname
              .replace(/^\/files\//, '')
              .split('/')
              .map(decodeURIComponent),
          );
          const small = (img: Buffer) =>
            sharp(img).resize(64, 40, { fit: 'fill' }).greyscale().raw().toBuffer();
          const [seen, stored] = await Promise.all([
            small(await shown.screenshot()),
            small(readFileSync(file)),
          ]);
          const meanDiff = seen.reduce((sum, v, i) => sum + Math.abs(v - stored[i]), 0) / seen.length;
          expect(meanDiff, `the approval image differs from ${file}`).toBeLessThan(12);
        }
        // By button, by key, and by editing (here to the same code, so the task still succeeds).
        if (approved === 0) await page.getByTestId('approve').click();
        else if (approved === 1) await page.keyboard.press('a');
        else if (approved === 2) {
          await page.keyboard.press('e');
          await expect.poll(() => page.getByLabel('edited action').inputValue()).not.toBe('');
          await page.getByTestId('perform-edit').click();
        } else await page.getByTestId('approve').click();
        approved++;
        await expect
          .poll(() => page.getByTestId('step-list').locator('.step-no').count(), { timeout: 30_000 })
          .toBeGreaterThan(stepsBefore);
      }
      expect(approved).toBeGreaterThanOrEqual(3);
      await expect
        .poll(() => page.locator('.replay-head').textContent(), { timeout: 60_000 })
        .toMatch(/success.*score 1/);
      await page.screenshot({ path: resolve(artefactsDir, 'live-finished.png') });
      // The environment the form named is the run's, kept in its manifest for --resume.
      const [runId] = readdirSync(join(w.root, 'results'));
      expect(JSON.parse(readFileSync(join(w.root, 'results', runId, 'manifest.json'), 'utf8'))).toMatchObject(
        { env: 'local:1280x800' },
      );
    });

    it('lets a person act as the human agent: a click on the live screen and typed code become the trajectory', async () => {
      const page = await w.browser.newPage({ viewport: { width: 1500, height: 950 } });
      await page.goto(`${w.served.url}#/runs`);
      await page.getByTestId('start-run').locator('summary').click();
      await page.getByLabel('tasks to run').fill(task);
      await page.getByLabel('agent').selectOption('human');
      await page.getByTestId('start-run-submit').click();
      await expect.poll(() => page.getByTestId('run-task-row').count(), { timeout: 30_000 }).toBe(1);
      await page.getByTestId('run-task-row').click();

      // Click on the live screen where the oracle clicks (200, 150): the page maps it to screen pixels.
      const screen = page.getByTestId('live-screen');
      await screen.waitFor({ timeout: 60_000 });
      await page.waitForFunction(
        () =>
          ((document.querySelector('[data-testid="live-screen"]') as HTMLImageElement | null)?.naturalWidth ??
            0) > 0,
      );
      const box = (await screen.boundingBox())!;
      const natural = await screen.evaluate((img: HTMLImageElement) => img.naturalWidth);
      await page.mouse.click(
        box.x + (200 * box.width) / natural + 0.5,
        box.y + (150 * box.width) / natural + 0.5,
      );
      await expect
        .poll(() => page.getByTestId('step-list').locator('.step-no').count(), { timeout: 30_000 })
        .toBe(1);
      await expect
        .poll(() => page.locator('[data-testid="click-mark"]').first().getAttribute('data-x'))
        .toMatch(/^(199|200|201)$/);

      const act = async (code: string, steps: number) => {
        await page.getByLabel('human action').waitFor({ timeout: 60_000 });
        await page.getByLabel('human action').fill(code);
        await page.getByRole('button', { name: 'Act' }).click();
        await expect
          .poll(() => page.getByTestId('step-list').locator('.step-no').count(), { timeout: 30_000 })
          .toBe(steps);
      };
      await act(
        `pyautogui.write('cd ~/Desktop && sqlite3 -csv -header :memory: ".import sales.csv sales" "SELECT region, SUM(quantity) AS total_quantity FROM sales GROUP BY region ORDER BY region;" > region_totals.csv')`,
        2,
      );
      await act("pyautogui.press('enter'); time.sleep(1)", 3);
      await page.screenshot({ path: resolve(artefactsDir, 'live-human.png') });
      await act('DONE', 4);
      await expect
        .poll(() => page.locator('.replay-head').textContent(), { timeout: 60_000 })
        .toMatch(/success.*score 1/);
    });

    it('shows that an agent drives the display, pauses and resumes with p, stops with x, and says the run was stopped', async () => {
      const page = await w.browser.newPage({ viewport: { width: 1500, height: 950 } });
      await page.goto(`${w.served.url}#/runs`);
      await page.getByTestId('start-run').locator('summary').click();
      await page.getByLabel('tasks to run').fill(task);
      await page.getByLabel('agent').selectOption('oracle');
      await page.getByLabel('approve each action').check();
      await page.getByTestId('start-run-submit').click();
      await expect.poll(() => page.getByTestId('run-task-row').count(), { timeout: 30_000 }).toBe(1);
      await expect
        .poll(() => page.getByTestId('run-status').textContent())
        .toMatch(/^running · 0 of 1 finished/);
      await page.getByTestId('run-task-row').click();
      await page.getByTestId('live-panel').waitFor({ timeout: 60_000 });
      const driving = page.getByTestId('driving');
      await expect.poll(() => driving.textContent()).toMatch(/running · an agent drives the display/);
      expect(await driving.isVisible()).toBe(true);
      await page.screenshot({ path: resolve(artefactsDir, 'live-driving.png') });
      await page.keyboard.press('p');
      await expect.poll(() => driving.textContent()).toMatch(/paused/);
      await page.keyboard.press('p');
      await expect.poll(() => driving.textContent()).toMatch(/running/);
      await page.keyboard.press('x'); // stops the run (the waiting action is not performed)
      await expect
        .poll(() => page.locator('.replay-head').textContent(), { timeout: 60_000 })
        .toMatch(/cancelled/);
      await expect.poll(() => page.getByTestId('driving').count(), { timeout: 30_000 }).toBe(0);
      await page.keyboard.press('Escape');
      await expect
        .poll(() => page.getByTestId('run-status').textContent(), { timeout: 30_000 })
        .toMatch(/stopped by a person \(1 task cancelled\)/);
    });
  },
);
