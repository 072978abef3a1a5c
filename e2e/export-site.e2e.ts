// `proctor export html` opened from file:// in Debian Chromium with the network off (every non-file request
// aborted, host names unresolvable): the run table, a replay opened from it, stepped with the keyboard, with the
// screenshot, the click mark where the step clicked, Set-of-Mark boxes and the verdict; a deep link to a step;
// what writes is hidden. Then the replay's "export video" button in `proctor serve` gives a playable MP4.
import { readFileSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../src/main/cli/main';
import { onPath } from '../src/main/tasks/needs';
import { chromiumMissing, chromiumPath, useWorkbench } from './support/serve';
import { writeSyntheticRun, type SyntheticRun } from './support/synthetic-run';

/** The selected step's image and its click mark, polled as a whole so a timeout says which part never came. */
const shown = (page: Page) =>
  page.evaluate(() => {
    const img = document.querySelector('[data-testid="step-image"]') as HTMLImageElement | null;
    const mark = document.querySelector('[data-testid="click-mark"]');
    return {
      image: img ? (img.complete ? (img.naturalWidth > 0 ? 'loaded' : 'broken') : 'loading') : 'none',
      src: img?.getAttribute('src') ?? '',
      mark: mark ? { x: Number(mark.getAttribute('data-x')), y: Number(mark.getAttribute('data-y')) } : null,
    };
  });

describe.skipIf(!!chromiumMissing)(
  `an exported site from file://, network off${chromiumMissing ? ` (skipped: ${chromiumMissing})` : ''}`,
  () => {
    let tmp: string;
    let run: SyntheticRun;
    let site: string;
    let printed: string[];
    let browser: Browser;
    const blocked: string[] = [];

    beforeAll(async () => {
      tmp = mkdtempSync(join(tmpdir(), 'proctor-export-site-'));
      run = await writeSyntheticRun({ out: join(tmp, 'runs'), tasks: 3, steps: 4 });
      site = join(tmp, 'site');
      printed = [];
      const code = await main(['export', 'html', join(tmp, 'runs'), '--out', site], {
        out: (l) => printed.push(l),
        err: (l) => printed.push(l),
      });
      if (code !== 0) throw new Error(`proctor export html failed (${code}):\n${printed.join('\n')}`);
      browser = await chromium.launch({
        executablePath: chromiumPath,
        args: [
          '--no-sandbox',
          '--disable-gpu',
          '--disable-background-networking',
          '--disable-component-update',
          '--no-first-run',
          '--host-resolver-rules=MAP * ~NOTFOUND',
        ],
      });
    });
    afterAll(async () => {
      await browser?.close();
      if (tmp) rmSync(tmp, { recursive: true, force: true });
    });

    async function offlinePage(): Promise<{ page: Page; errors: string[] }> {
      const context = await browser.newContext({ viewport: { width: 1500, height: 950 } });
      await context.route('**', (route) => {
        if (route.request().url().startsWith('file:')) return route.continue();
        blocked.push(route.request().url());
        return route.abort();
      });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      return { page, errors };
    }

    it('prints the size, the screenshots and the time', () => {
      // 3 tasks × 4 steps: each step's screenshot after it, and the first observation of each task.
      expect(printed.join('\n')).toMatch(/^\d+(\.\d)? (KB|MB), 15 screenshots, written in \d+(\.\d)? s$/m);
    });

    it('opens a replay from the run table, steps with the keyboard, and shows the screenshot, click mark, SoM and verdict', async () => {
      const { page, errors } = await offlinePage();
      await page.goto(pathToFileURL(join(site, 'index.html')).href);
      await expect.poll(() => page.url()).toContain('#/runs');
      await page.getByTestId('run-row').first().click();
      await expect.poll(() => page.getByTestId('success-rate').textContent()).toMatch(/success 33\.3%/);
      await expect.poll(() => page.getByTestId('run-stats').isVisible()).toBe(true);
      await page.getByTestId('run-task-row').filter({ hasText: 'chromium/task-0001' }).click();

      await expect
        .poll(() => page.getByTestId('step-list').locator('li.current .step-no').textContent())
        .toBe('1');
      await expect.poll(() => shown(page)).toMatchObject({ image: 'loaded', mark: run.clickOf(1) });
      const first = (await shown(page)).src;
      expect(first).toMatch(/^files\//);
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => page.url()).toContain('step=2');
      await expect.poll(() => shown(page)).toMatchObject({ image: 'loaded', mark: run.clickOf(2) });
      expect((await shown(page)).src).not.toBe(first);
      // The mark sits where the step clicked on the picture (the synthetic screen draws its target there).
      const at = await page.evaluate(() => {
        const img = document.querySelector('[data-testid="step-image"]')!.getBoundingClientRect();
        const dot = document.querySelector('[data-testid="click-mark"] circle')!.getBoundingClientRect();
        return {
          x: ((dot.left + dot.width / 2 - img.left) * 1280) / img.width,
          y: ((dot.top + dot.height / 2 - img.top) * 720) / img.height,
        };
      });
      expect(Math.abs(at.x - run.clickOf(2).x)).toBeLessThan(3);
      expect(Math.abs(at.y - run.clickOf(2).y)).toBeLessThan(3);

      await page.keyboard.press('s');
      await expect.poll(() => page.url()).toContain('som=1');
      await expect.poll(() => page.getByTestId('som-mark').count()).toBe(2);

      await expect.poll(() => page.getByTestId('replay-score').textContent()).toBe('score 1');
      await expect.poll(() => page.getByTestId('verdicts').textContent()).toMatch(/rows match/);
      // Read-only: nothing that writes is offered.
      expect(await page.getByTestId('export-video').count()).toBe(0);
      expect(await page.getByTestId('safety-label').isVisible()).toBe(false);
      expect(await page.locator('.topbar').textContent()).toContain('static');
      expect(errors).toEqual([]);
    });

    it('opens a deep link to a step of another task directly', async () => {
      const { page, errors } = await offlinePage();
      await page.goto(
        `${pathToFileURL(join(site, 'index.html')).href}#/runs/${encodeURIComponent(run.runId)}?task=${encodeURIComponent(run.taskKeys[1])}&step=3`,
      );
      await expect
        .poll(() => page.getByTestId('step-list').locator('li.current .step-no').textContent())
        .toBe('3');
      await expect.poll(() => shown(page)).toMatchObject({ image: 'loaded', mark: run.clickOf(3) });
      await expect.poll(() => page.getByTestId('replay-score').textContent()).toBe('score 0');
      await expect.poll(() => page.getByTestId('verdicts').textContent()).toMatch(/row 2 differs/);
      await page.keyboard.press('Escape');
      await expect.poll(() => page.getByTestId('run-task-row').count()).toBe(3);
      expect(
        await page
          .getByTestId('start-run')
          .isVisible()
          .catch(() => false),
      ).toBe(false);
      expect(errors).toEqual([]);
    });

    it('made no request past the file system', () => {
      expect(blocked).toEqual([]);
    });
  },
);

const haveFfmpeg = onPath('ffmpeg');
const skipVideo = chromiumMissing ?? (haveFfmpeg ? undefined : 'no ffmpeg');
describe.skipIf(!!skipVideo)(
  `the replay's export video button in proctor serve${skipVideo ? ` (skipped: ${skipVideo})` : ''}`,
  () => {
    let run: SyntheticRun;
    const w = useWorkbench('export-video', async (root) => {
      run = await writeSyntheticRun({ out: join(root, 'runs'), tasks: 1, steps: 3 });
    });

    it('makes the task’s MP4 and offers it for download', async () => {
      const page = await w.browser.newPage({ viewport: { width: 1500, height: 950 } });
      await page.goto(
        `${w.served.url}#/runs/${encodeURIComponent(run.runId)}?task=${encodeURIComponent(run.taskKeys[0])}`,
      );
      await page.getByTestId('export-video').getByRole('button').click();
      const link = page.getByTestId('video-download');
      await expect.poll(() => link.count(), { timeout: 60_000 }).toBe(1);
      const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
      const bytes = readFileSync((await download.path())!);
      expect(bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
      expect(download.suggestedFilename()).toMatch(/\.mp4$/);
    });
  },
);
