// Demonstration review in Debian Chromium against `proctor serve`: the lead (Proctor's local user) opens the
// replay of a person's run, gives a reason, accepts it as a demonstration, and the task browser's review lists it.
import { copyFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeHumanRun } from '../src/main/annotate/testing/human-run';
import { artefactsDir, chromiumMissing, projectRoot, useWorkbench } from './support/serve';

const taskId = '246ccb60-7635-46fa-a222-6f4261e826ee';

describe.skipIf(chromiumMissing)(
  `demonstration review in Chromium${chromiumMissing ? ` (skipped: ${chromiumMissing})` : ''}`,
  () => {
    const w = useWorkbench('demo-review', async (root) => {
      mkdirSync(join(root, 'tasks'));
      copyFileSync(
        join(projectRoot, 'resources/demo/terminal', taskId, `${taskId}.json`),
        join(root, 'tasks', `${taskId}.json`),
      );
      await writeHumanRun(
        join(root, 'results'),
        { domain: 'terminal', id: taskId },
        ["pyautogui.press('enter')", 'DONE'],
        'ada-demo',
      );
    });

    it("accepts a person's run with a reason in its replay, and lists it in the task's review evidence", async () => {
      const page = await w.browser.newPage({ viewport: { width: 1400, height: 900 } });
      await page.goto(`${w.served.url}#/runs/ada-demo?task=${encodeURIComponent(`terminal/${taskId}`)}`);
      const panel = page.getByTestId('demonstration-review');
      await panel.waitFor({ timeout: 60_000 });
      await expect.poll(() => page.getByTestId('demonstration-status').textContent()).toBe('not reviewed');
      // No reason: nothing is recorded, and the page says why.
      await page.getByRole('button', { name: 'Accept demonstration' }).click();
      await expect
        .poll(() => page.getByTestId('demonstration-message').textContent())
        .toMatch(/give a reason/);
      expect(await page.getByTestId('demonstration-status').textContent()).toBe('not reviewed');
      await page.getByLabel('demonstration reason').fill('writes the totals file the task asks for');
      await page.getByRole('button', { name: 'Accept demonstration' }).click();
      await expect.poll(() => page.getByTestId('demonstration-status').textContent()).toBe('accepted');
      expect(await panel.textContent()).toContain('writes the totals file the task asks for');
      await page.screenshot({ path: resolve(artefactsDir, 'demonstration-accepted.png') });

      await page.goto(`${w.served.url}#/tasks?folder=tasks`);
      await page
        .getByTestId('task-row')
        .filter({ hasText: taskId.slice(0, 8) })
        .click();
      await expect
        .poll(() => page.getByTestId('task-demonstrations').textContent(), { timeout: 30_000 })
        .toMatch(/ada-demo — .*: writes the totals file the task asks for/);

      // Rejected later: no longer offered.
      await page.goto(`${w.served.url}#/runs/ada-demo?task=${encodeURIComponent(`terminal/${taskId}`)}`);
      await page.getByLabel('demonstration reason').fill('it skipped checking the file');
      await page.getByRole('button', { name: 'Reject demonstration' }).click();
      await expect.poll(() => page.getByTestId('demonstration-status').textContent()).toBe('rejected');
      await page.goto(`${w.served.url}#/tasks?folder=tasks`);
      await page
        .getByTestId('task-row')
        .filter({ hasText: taskId.slice(0, 8) })
        .click();
      await expect
        .poll(() => page.getByTestId('task-demonstrations').textContent(), { timeout: 30_000 })
        .toMatch(/none/);
    }, 180_000);
  },
);
