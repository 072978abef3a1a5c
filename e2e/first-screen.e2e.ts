// The first screen of `proctor serve results` — the command the demo prints — in Debian Chromium: a folder that
// holds runs opens on its runs with no problem listed; the task browser does not read run folders as tasks; a
// problem the task browser does show names its file and its line or JSON pointer.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { missingDemoPrograms, runProctor } from '../src/main/demo/testing-env';
import { artefactsDir, chromiumMissing, useWorkbench } from './support/serve';

const missing = [...missingDemoPrograms(), ...(chromiumMissing ? [chromiumMissing] : [])];

describe.skipIf(missing.length > 0)(
  `the first screen of a demo results folder${missing.length ? ` (skipped: missing ${missing.join(', ')})` : ''}`,
  () => {
    const w = useWorkbench('first-screen', async (root) => {
      const demo = await runProctor(['demo', '--out', join(root, 'results')], 300_000);
      if (demo.code !== 0)
        throw new Error(`proctor demo failed (${demo.code}):\n${demo.stdout}\n${demo.stderr}`);
      // Beside the runs, a task folder with one broken task, to see how the task browser shows a problem.
      const task = join(root, 'tasks', 'examples', 'terminal', 'broken');
      mkdirSync(task, { recursive: true });
      writeFileSync(
        join(task, 'broken.json'),
        JSON.stringify(
          {
            id: 'broken',
            snapshot: 'terminal',
            source: [],
            tags: ['cli'],
            config: [],
            evaluator: { func: 'exact_match', result: { type: 'rule' }, expected: { type: 'rule' } },
          },
          null,
          2,
        ),
      );
    });

    it('opens on the runs, lists both demo runs, and shows no problem anywhere on the way', async () => {
      const page = await w.browser.newPage({ viewport: { width: 1400, height: 900 } });
      await page.goto(w.served.url);
      await expect.poll(() => page.getByTestId('run-row').count(), { timeout: 30_000 }).toBe(2);
      expect(new URL(page.url()).hash).toBe('#/runs');
      expect(await page.locator('nav a').first().textContent()).toBe('Runs');
      expect(await page.getByTestId('problem').count()).toBe(0);
      await page.screenshot({ path: resolve(artefactsDir, 'first-screen-runs.png') });

      await page.getByTestId('run-row').first().click();
      await expect
        .poll(() => page.getByTestId('success-rate').textContent(), { timeout: 30_000 })
        .toMatch(/success/);
      expect(await page.getByTestId('problem').count()).toBe(0);

      // The Tasks tab on the results folder: runs are not task folders, so nothing to list and nothing wrong.
      await page.goto(`${w.served.url}#/tasks?folder=results`);
      await expect
        .poll(() => page.getByTestId('task-count').textContent(), { timeout: 30_000 })
        .toMatch(/^0 tasks · 0 apps · 0 invalid · 0 warnings$/);
      expect(await page.getByTestId('problem').count()).toBe(0);
    });

    it('lists the task folder beside the runs, and names the file and JSON pointer of each problem', async () => {
      const page = await w.browser.newPage({ viewport: { width: 1400, height: 900 } });
      // The whole served folder: the broken task's problems only, nothing from the run folders.
      await page.goto(`${w.served.url}#/tasks?folder=`);
      await expect.poll(() => page.getByTestId('problem').count(), { timeout: 30_000 }).toBeGreaterThan(0);
      expect(
        (await page.getByTestId('problem').allTextContents()).filter((p) => !p.startsWith('tasks/')),
      ).toEqual([]);
      await page.goto(`${w.served.url}#/tasks?folder=tasks`);
      await expect.poll(() => page.getByTestId('problem').count(), { timeout: 30_000 }).toBeGreaterThan(0);
      await expect
        .poll(() => page.getByTestId('task-count').textContent())
        .toMatch(/^0 tasks · 0 apps · 1 invalid/);
      expect(await page.getByLabel('task folder').inputValue()).toBe('tasks');
      const problems = await page.getByTestId('problem').allTextContents();
      for (const p of problems)
        expect(p).toMatch(/^tasks\/examples\/terminal\/broken\/broken\.json(:\d+(:\d+)?)? \/\S*/);
      expect(
        problems.some((p) => /broken\.json \/instruction missing required property 'instruction'/.test(p)),
      ).toBe(true);
      await page.screenshot({ path: resolve(artefactsDir, 'first-screen-task-problem.png') });
    });
  },
);
