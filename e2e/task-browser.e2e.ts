// The task browser in Debian Chromium against `proctor serve`: real server, real browser, real fixture tasks.
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artefactsDir, chromiumMissing, launchChromium, serve, type Served } from './support/serve';
import { needsShared, repoFixtures, sharedFixtures } from '../src/main/testing/shared-fixtures';

// The in-repo fixtures (fixtures/: 12 native tasks, 16 Spider2-V tasks) always; the full set where it is beside the clone.
const fixtures = repoFixtures.root;
const full = sharedFixtures();

describe.skipIf(chromiumMissing)(
  `task browser in Chromium${chromiumMissing ? ` (skipped: ${chromiumMissing})` : ''}`,
  () => {
    let served: Served;
    let fullServed: Served | undefined;
    let browser: Browser;
    beforeAll(async () => {
      served = await serve(fixtures);
      if (full) fullServed = await serve(full.root);
      browser = await launchChromium();
      mkdirSync(artefactsDir, { recursive: true });
    });
    afterAll(async () => {
      await browser?.close();
      await served?.stop();
      await fullServed?.stop();
    });

    it('lists the native tasks grouped by app, shows an instruction, and switches to the counterpart', async () => {
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      await page.goto(`${served.url}#/tasks?folder=seed-format/examples`);
      await expect
        .poll(() => page.getByTestId('task-count').textContent(), { timeout: 30_000 })
        .toMatch(/^12 tasks · 1 apps/);
      const rows = page.getByTestId('task-row');
      expect(await rows.count()).toBe(12);
      // a verbose task with a counterpart
      await page.getByTestId('task-row').filter({ hasText: '00b43a0a' }).click();
      await expect
        .poll(() => page.getByTestId('instruction').textContent())
        .toContain('Summer and Winter Olympics');
      expect(page.url()).toContain('task=');
      await page.getByTestId('counterpart').click();
      await expect
        .poll(() => page.getByTestId('task-detail').textContent())
        .toContain('cad93c85-d12d-4ba3-83d7-ba4e3ec3bfcc');
      await page.screenshot({ path: resolve(artefactsDir, 'task-browser.png') });
    });

    it('shows the self-counterpart defect of the native set as a warning', async () => {
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      await page.goto(`${served.url}#/tasks?folder=seed-format/examples`);
      await expect
        .poll(() => page.getByTestId('task-count').textContent(), { timeout: 30_000 })
        .toMatch(/0 invalid · 10 warnings$/);
      // In the in-repo subset 9 tasks' counterparts are not in the folder (a warning each) besides the real defect.
      expect(await page.getByTestId('task-row').filter({ hasText: 'warning' }).count()).toBe(10);
      await page.getByTestId('task-row').filter({ hasText: '5085517b' }).click();
      await expect
        .poll(() => page.getByTestId('problems').textContent())
        .toMatch(/counterpart .* is the task's own id/);
    });

    it('groups the in-repo Spider2-V tasks by their 7 apps', async () => {
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      await page.goto(`${served.url}#/tasks?folder=spider2v/examples`);
      await expect
        .poll(() => page.getByTestId('task-count').textContent(), { timeout: 60_000 })
        .toMatch(/^16 tasks · 7 apps · 0 invalid/);
    });

    it.skipIf(!full)(
      `groups the 494 Spider2-V tasks by their 11 apps${full ? '' : ` (skipped: ${needsShared})`}`,
      async () => {
        const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
        await page.goto(`${fullServed!.url}#/tasks?folder=spider2v/examples`);
        await expect
          .poll(() => page.getByTestId('task-count').textContent(), { timeout: 60_000 })
          .toMatch(/^494 tasks · 11 apps · 0 invalid/);
        await page.screenshot({ path: resolve(artefactsDir, 'task-browser-spider2v.png') });
      },
    );

    it('refuses paths outside the served folder', async () => {
      const res = await fetch(new URL('/api/call', served.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ method: 'tasks.open', params: { path: '../../etc' } }),
      });
      expect(res.status).toBe(403);
      const bad = await fetch(new URL('/api/call', served.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ method: 'tasks.open', params: { path: 3 } }),
      });
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(/invalid params/);
    });
  },
);
