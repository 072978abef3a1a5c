// Several runs of one task side by side, and deep links, in Debian Chromium against `proctor serve`: two runs
// written through the real store (the second clicks elsewhere from step 4 on) are picked in the run list,
// stepped in sync, and their first divergence is marked; a link to a step opens exactly there and `y` copies it.
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { artefactsDir, chromiumMissing, useWorkbench } from './support/serve';
import { writeSyntheticRun, type SyntheticRun } from './support/synthetic-run';

/** The machine is shared: give slow first paints room (the polls still fail when a view never shows). */
const slow = { timeout: 15_000 };

describe.skipIf(chromiumMissing)(
  `runs side by side and deep links${chromiumMissing ? ` (skipped: ${chromiumMissing})` : ''}`,
  () => {
    let a: SyntheticRun;
    let b: SyntheticRun;
    const w = useWorkbench('compare', async (root) => {
      a = await writeSyntheticRun({ out: join(root, 'results'), tasks: 2, steps: 8, agent: 'alpha' });
      b = await writeSyntheticRun({
        out: join(root, 'results'),
        tasks: 2,
        steps: 8,
        agent: 'beta',
        divergeAt: 4,
      });
    });
    const runPath = (r: SyntheticRun) => `results/${r.runId}`;

    it('picks two runs in the run list, steps them in sync and marks the first divergence', async () => {
      const page = await w.browser.newPage({ viewport: { width: 1500, height: 950 } });
      await page.goto(`${w.served.url}#/runs`);
      await expect.poll(() => page.getByTestId('run-row').count(), slow).toBe(2);
      await page.getByTestId('run-pick').nth(0).check();
      await page.getByTestId('run-pick').nth(1).check();
      await page.getByTestId('compare-runs').click();
      await expect.poll(() => page.getByTestId('shared-task-row').count(), slow).toBe(2);
      await page.screenshot({ path: resolve(artefactsDir, 'compare-shared-tasks.png') });
      await page.getByTestId('shared-task-row').filter({ hasText: a.taskKeys[0] }).click();

      await expect.poll(() => page.getByTestId('compare-image').count(), slow).toBe(2);
      await expect
        .poll(() => page.getByTestId('compare-verdicts').textContent())
        .toMatch(/alpha[\s\S]*beta|beta[\s\S]*alpha/);
      const srcs = () =>
        page.getByTestId('compare-image').evaluateAll((imgs) => imgs.map((i) => (i as HTMLImageElement).src));
      expect((await srcs()).every((s) => /step_1\./.test(s))).toBe(true);

      // Both runs step together.
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => page.url()).toContain('step=2');
      // step 2's screen: its own file, or (stored once) the same picture the screen after step 1 already holds
      await expect.poll(async () => (await srcs()).every((s) => /step_(2\.|1_)/.test(s))).toBe(true);
      await page.keyboard.press('ArrowLeft');
      await expect.poll(() => page.url()).toContain('step=1');

      // The first divergence: by action (from the engine's comparison) and by screen (its image differences).
      await expect.poll(() => page.getByTestId('divergence-action').getAttribute('data-step')).toBe('4');
      await expect.poll(() => page.getByTestId('divergence-screen').count(), slow).toBeGreaterThan(0);
      expect(await page.getByTestId('divergence-screen').getAttribute('data-step')).toBe('4');
      expect(await page.getByTestId('compare-panel').nth(1).getAttribute('data-differs')).toBe('0');
      await page.getByTestId('jump-divergence').click();
      await expect.poll(() => page.url()).toContain('step=4');
      await expect
        .poll(() => page.getByTestId('compare-panel').nth(1).getAttribute('data-differs'))
        .toBe('1');
      // Each run's click mark sits where that run clicked: the second mirrored through the centre.
      const marks = await page
        .getByTestId('click-mark')
        .evaluateAll((gs) => gs.map((g) => Number(g.getAttribute('data-x'))));
      const first = a.clickOf(4).x;
      const second = b.clickOf(4).x;
      expect(second).not.toBe(first);
      expect(marks.sort((x, y) => x - y)).toEqual([first, second].sort((x, y) => x - y));
      await page.screenshot({ path: resolve(artefactsDir, 'compare-runs.png') });
    });

    it('opens a link to a step exactly there, and y copies the link with a toast', async () => {
      const context = await w.browser.newContext({ viewport: { width: 1500, height: 950 } });
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
        origin: new URL(w.served.url).origin,
      });
      const page = await context.newPage();
      const link = `${w.served.url}#/runs/${encodeURIComponent(runPath(a))}?task=${encodeURIComponent(a.taskKeys[1])}&step=7`;
      await page.goto(link);
      await expect.poll(() => page.locator('.step-list li.current .step-no').textContent(), slow).toBe('7');
      await page.waitForFunction(
        () =>
          (document.querySelector('[data-testid="step-image"]') as HTMLImageElement | null)?.complete ===
          true,
      );
      expect(await page.getByTestId('step-image').getAttribute('src')).toMatch(/step_(7\.|6_)/); // stored once: see above
      expect(await page.getByTestId('click-mark').first().getAttribute('data-x')).toBe(
        String(a.clickOf(7).x),
      );

      await page.keyboard.press('y');
      await expect.poll(() => page.getByTestId('toast').textContent()).toContain('Link copied');
      const copied = await page.evaluate(() => navigator.clipboard.readText());
      expect(copied).toBe(page.url());
      expect(copied).toContain('step=7');
      await page.screenshot({ path: resolve(artefactsDir, 'deep-link.png') });

      // The copied link, opened afresh, shows the same step; so does a side-by-side link with a step.
      const again = await context.newPage();
      await again.goto(copied);
      await expect.poll(() => again.locator('.step-list li.current .step-no').textContent(), slow).toBe('7');
      // From the replay, "side by side with…" another run opens both at the same step.
      await again.getByTestId('compare-with').selectOption(runPath(b));
      await expect.poll(() => again.getByTestId('compare-step').textContent(), slow).toContain('step 7 of 8');
      await expect.poll(() => again.getByTestId('compare-image').count()).toBe(2);
      await again.goto(
        `${w.served.url}#/compare?run=${encodeURIComponent(runPath(a))}&run=${encodeURIComponent(runPath(b))}&task=${encodeURIComponent(a.taskKeys[0])}&step=6`,
      );
      await expect.poll(() => again.getByTestId('compare-step').textContent()).toContain('step 6 of 8');
      await expect
        .poll(async () =>
          (
            await again
              .getByTestId('compare-image')
              .evaluateAll((imgs) => imgs.map((i) => (i as HTMLImageElement).src))
          ).every((s) => /step_(6\.|5_)/.test(s)),
        )
        .toBe(true);
      await context.close();
    });
  },
);

describe.skipIf(chromiumMissing)(
  `runs of different lengths side by side${chromiumMissing ? ` (skipped: ${chromiumMissing})` : ''}`,
  () => {
    let long: SyntheticRun;
    let short: SyntheticRun;
    const w = useWorkbench('compare-ends', async (root) => {
      long = await writeSyntheticRun({ out: join(root, 'results'), tasks: 1, steps: 8, agent: 'long' });
      short = await writeSyntheticRun({ out: join(root, 'results'), tasks: 1, steps: 5, agent: 'short' });
    });

    it("says where each run ended past its end, never 'same action'", async () => {
      const page = await w.browser.newPage({ viewport: { width: 1500, height: 950 } });
      const link = (first: SyntheticRun, second: SyntheticRun, step: number) =>
        `${w.served.url}#/compare?run=${encodeURIComponent(`results/${first.runId}`)}&run=${encodeURIComponent(`results/${second.runId}`)}&task=${encodeURIComponent(long.taskKeys[0])}&step=${step}`;
      // The shorter run past its end.
      await page.goto(link(long, short, 8));
      await expect.poll(() => page.getByTestId('compare-panel').count(), slow).toBe(2);
      await expect
        .poll(() => page.getByTestId('compare-panel').nth(1).textContent())
        .toMatch(/ended at step 5/);
      expect(await page.getByTestId('compare-panel').nth(1).textContent()).not.toMatch(/same action/);
      // The reference past its end: the other pane says so.
      await page.goto(link(short, long, 8));
      await page.reload();
      await expect
        .poll(() => page.getByTestId('compare-panel').nth(1).textContent(), slow)
        .toMatch(/the reference ended at step 5/);
      expect(await page.getByTestId('compare-panel').nth(0).textContent()).toMatch(/ended at step 5/);
      await page.screenshot({ path: resolve(artefactsDir, 'compare-ends.png') });
    });
  },
);
