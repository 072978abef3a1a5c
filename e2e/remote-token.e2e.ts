// `proctor serve --token` in Debian Chromium: the printed address works once, the token leaves the address bar and
// the history, and the UI, its images and its live events go on by the HttpOnly cookie alone.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, launchChromium, serve, type Served } from './support/serve';
import { writeSyntheticRun, type SyntheticRun } from './support/synthetic-run';

describe.skipIf(chromiumMissing)(
  `the token in Chromium${chromiumMissing ? ` (skipped: ${chromiumMissing})` : ''}`,
  () => {
    let root: string;
    let served: Served;
    let browser: Browser;
    let run: SyntheticRun;
    beforeAll(async () => {
      root = mkdtempSync(join(tmpdir(), 'proctor-token-'));
      run = await writeSyntheticRun({ out: join(root, 'results'), tasks: 1, steps: 2 });
      served = await serve(root, ['--token']);
      browser = await launchChromium();
    });
    afterAll(async () => {
      await browser?.close();
      await served?.stop();
      if (root) rmSync(root, { recursive: true, force: true });
    });

    it('trades the printed token for a cookie the page cannot read, and shows no token anywhere after', async () => {
      const token = /\?token=([\w-]+)/.exec(served.url)?.[1];
      expect(token).toBeTruthy();
      const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
      const page = await context.newPage();
      const requested: string[] = [];
      page.on('request', (r) => requested.push(r.url()));
      page.on('websocket', (ws) => requested.push(ws.url()));
      const origin = new URL(served.url).origin;
      await page.goto(
        `${served.url}#/runs/${encodeURIComponent(`results/${run.runId}`)}?task=${encodeURIComponent(run.taskKeys[0])}&step=1`,
      );
      // the header shows the folder's name (not its host path) once app.info answered by cookie
      await expect
        .poll(() => page.locator('header .root').textContent(), { timeout: 30_000 })
        .toMatch(new RegExp(`^${basename(root)} · http · v`));
      expect(page.url()).not.toContain('token');
      expect(page.url()).toContain(`${origin}/#/runs/`);
      await page.waitForFunction(
        () => {
          const img = document.querySelector('[data-testid="step-image"]') as HTMLImageElement | null;
          return img?.complete === true && img.naturalWidth > 0;
        },
        null,
        { timeout: 30_000 },
      );
      expect(await page.evaluate(() => document.cookie)).toBe(''); // HttpOnly: out of the page's reach
      const cookies = await context.cookies();
      expect(cookies).toEqual([
        expect.objectContaining({ value: token, httpOnly: true, sameSite: 'Strict' }),
      ]);
      // only the first navigation carried the token; the API, the images and the event socket did not
      expect(requested.filter((u) => u.includes('token='))).toEqual([requested[0]]);
      expect(requested.some((u) => u.includes('/files/'))).toBe(true);
      await expect.poll(() => requested.some((u) => u.startsWith('ws:') && u.endsWith('/events'))).toBe(true);
      // the redirect replaced the tokened address: going back leaves the app, never to an address with the token
      await page.goBack();
      expect(page.url()).not.toContain('token');
      await context.close();
    });

    it('refuses a browser without the cookie', async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(new URL('/#/runs', served.url).href);
      await expect
        .poll(() => page.locator('header .root').textContent(), { timeout: 30_000 })
        .toMatch(/engine unreachable: a valid token is required/);
      await context.close();
    });
  },
);
