// Start a run finds the tasks where a user has them: right after `proctor demo`, serving only its results, the
// form offers the bundled demo by app and its own example (`demo/terminal`) starts and finishes a graded run.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { missingDemoPrograms } from '../src/main/demo/testing-env';
import { artefactsDir, chromiumMissing, useWorkbench } from './support/serve';

const missing = [...missingDemoPrograms(), ...(chromiumMissing ? [chromiumMissing] : [])];

describe.skipIf(missing.length > 0)(
  `starting a run on the bundled demo${missing.length ? ` (skipped: missing ${missing.join(', ')})` : ''}`,
  () => {
    // The served folder holds results only, as after `proctor demo` (no task folder below it).
    const w = useWorkbench(
      'start-demo',
      (root) => void mkdirSync(join(root, 'results'), { recursive: true }),
    );

    it("offers the demo by app and runs the form's own example, demo/terminal, to a grade", async () => {
      const page = await w.browser.newPage({ viewport: { width: 1500, height: 950 } });
      await page.goto(`${w.served.url}#/runs`);
      await page.getByTestId('start-run').locator('summary').click();
      const example = (await page.getByLabel('tasks to run').getAttribute('placeholder'))?.match(
        /e\.g\. (\S+)/,
      )?.[1];
      expect(example).toBe('demo/terminal');
      await expect
        .poll(() =>
          page
            .getByTestId('task-sources')
            .locator('option')
            .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value)),
        )
        .toEqual(expect.arrayContaining(['demo', 'demo/terminal', 'demo/chromium']));

      // A path that is nowhere says where Proctor looked.
      await page.getByLabel('tasks to run').fill('demo/no-such-app');
      await page.getByTestId('start-run-submit').click();
      await expect
        .poll(() => page.getByTestId('start-run').textContent(), { timeout: 15_000 })
        .toMatch(
          /no task file or folder 'demo\/no-such-app' in the served folder, or the bundled demo \(demo, demo\/chromium/,
        );

      await page.getByLabel('tasks to run').fill(example!);
      await page.getByLabel('agent').selectOption('oracle');
      await page.getByTestId('start-run-submit').click();
      await expect
        .poll(() => page.getByTestId('run-task-row').count(), { timeout: 30_000 })
        .toBeGreaterThan(0);
      await expect
        .poll(() => page.getByTestId('success-rate').textContent(), { timeout: 120_000 })
        .toMatch(/success 100\.0%/);
      await page.screenshot({ path: resolve(artefactsDir, 'start-demo.png') });
    });
  },
);
