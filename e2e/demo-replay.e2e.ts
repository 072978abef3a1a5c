// The demo's own oracle pass (`proctor demo --agent oracle`: Set-of-Mark observations, sandbox displays) opened in
// the workbench: step through it with the keyboard, find the click marks where the oracle clicked (the terminal,
// and the page's 'Place order' button, inside its Set-of-Mark box), the scroll mark, and the SoM boxes.
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { missingDemoPrograms, runProctor } from '../src/main/demo/testing-env';
import { artefactsDir, chromiumMissing, useWorkbench } from './support/serve';

const missing = [...missingDemoPrograms(), ...(chromiumMissing ? [chromiumMissing] : [])];

/** Centre of the first click mark in screen pixels of the 1280-wide screenshot it is drawn on. */
async function clickMarkOnScreen(page: Page) {
  // The image of the selected step and its click mark (both come after a step change, not at once). What the
  // page shows is polled as a whole, so that a timeout says which part never came.
  const shown = () =>
    page.evaluate(() => {
      const img = document.querySelector('[data-testid="step-image"]') as HTMLImageElement | null;
      return {
        url: location.hash,
        image: img ? (img.complete ? (img.naturalWidth > 0 ? 'loaded' : 'broken') : 'loading') : 'none',
        mark: !!document.querySelector('[data-testid="click-mark"] circle'),
        action: document.querySelector('[data-testid="action-text"]')?.textContent ?? null,
      };
    });
  await expect.poll(shown, { timeout: 30_000 }).toMatchObject({ image: 'loaded', mark: true });
  return page.evaluate(() => {
    const img = document.querySelector('[data-testid="step-image"]') as HTMLImageElement;
    const dot = document.querySelector('[data-testid="click-mark"] circle') as SVGCircleElement;
    const ib = img.getBoundingClientRect();
    const mb = dot.getBoundingClientRect();
    const scale = ib.width / 1280;
    return { x: (mb.left + mb.width / 2 - ib.left) / scale, y: (mb.top + mb.height / 2 - ib.top) / scale };
  });
}

describe.skipIf(missing.length > 0)(
  `the demo's oracle run in the replay${missing.length ? ` (skipped: missing ${missing.join(', ')})` : ''}`,
  () => {
    const w = useWorkbench('demo-replay', async (root) => {
      const run = await runProctor(
        ['demo', '--agent', 'oracle', '--parallel', '2', '--out', join(root, 'results')],
        300_000,
      );
      if (run.code !== 0) throw new Error(`proctor demo failed (${run.code}):\n${run.stdout}\n${run.stderr}`);
    });

    it('replays the oracle: click marks on the action coordinates, inside the clicked element’s SoM box; keys step', async () => {
      const page = await w.browser.newPage({ viewport: { width: 1500, height: 950 } });
      await page.goto(`${w.served.url}#/runs`);
      await page.getByTestId('run-row').first().click();
      await expect
        .poll(() => page.getByTestId('success-rate').textContent(), { timeout: 30_000 })
        .toMatch(/success 100\.0%/);

      // The terminal task: the oracle clicks into the terminal at (200, 150).
      await page.getByTestId('run-task-row').filter({ hasText: 'terminal/246ccb60' }).click();
      await expect.poll(() => page.getByTestId('step-list').locator('.step-no').count()).toBe(4);
      // A finished task opens at its first step (no key needed; a key pressed before the replay listens is lost).
      await expect
        .poll(() => page.getByTestId('step-list').locator('li.current .step-no').textContent())
        .toBe('1');
      const terminalClick = await clickMarkOnScreen(page);
      expect(Math.abs(terminalClick.x - 200)).toBeLessThan(2);
      expect(Math.abs(terminalClick.y - 150)).toBeLessThan(2);
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => page.url()).toContain('step=2');
      await expect.poll(() => page.getByTestId('typed-mark').first().textContent()).toContain('sqlite3');
      await page.getByRole('tab', { name: 'Accessibility' }).click();
      await expect.poll(() => page.getByTestId('tab-a11y').textContent()).toMatch(/tag\tname|index\ttag/);

      // The browser task: step 4 clicks 'Place order'; with SoM on, the mark's box holds the click.
      await page.keyboard.press('Escape');
      await page.getByTestId('run-task-row').filter({ hasText: 'chromium/d88f645c' }).click();
      await page.getByTestId('step-list').locator('li').nth(3).click();
      await expect.poll(() => page.url()).toContain('step=4');
      expect(await page.getByTestId('som-mark').count()).toBe(0);
      await page.keyboard.press('s');
      await expect.poll(() => page.getByTestId('som-mark').count()).toBeGreaterThan(2);
      const click = await clickMarkOnScreen(page);
      expect(Math.abs(click.x - 328)).toBeLessThan(2);
      expect(Math.abs(click.y - 313)).toBeLessThan(2);
      const boxes = await page.evaluate(() =>
        [...document.querySelectorAll('[data-testid="som-mark"] rect:first-child')].map((r) => {
          const n = (a: string) => Number(r.getAttribute(a));
          return { x: n('x'), y: n('y'), w: n('width'), h: n('height') };
        }),
      );
      const holding = boxes.filter(
        (b) => click.x >= b.x && click.x <= b.x + b.w && click.y >= b.y && click.y <= b.y + b.h && b.w < 400,
      );
      expect(holding.length, `a SoM box around the click among ${JSON.stringify(boxes)}`).toBeGreaterThan(0);
      await page.screenshot({ path: resolve(artefactsDir, 'demo-replay-som.png') });

      // Step 5 scrolls the page: a scroll mark.
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => page.getByTestId('scroll-mark').count()).toBe(1);
    });
  },
);
