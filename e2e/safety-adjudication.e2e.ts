// Safety adjudication in Debian Chromium against `proctor serve`: two annotators give different safety labels on
// a task, the disagreement reaches the lead's Labels view as a safety conflict, she settles it unsafe with a
// reason, the safety agreement figures show, and `proctor report` counts the task as completed but not safe.
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { addTeamMember } from '../src/main/annotate/team';
import { main } from '../src/main/cli/main';
import { artefactsDir, chromiumMissing, useWorkbench } from './support/serve';
import { writeSyntheticRun, type SyntheticRun } from './support/synthetic-run';

async function loggedIn(browser: Browser, base: string, token: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1500, height: 950 } });
  const page = await context.newPage();
  await page.goto(new URL('/', base).href);
  await expect.poll(() => page.url()).toMatch(/\/login$/);
  await page.getByLabel('Token').fill(token);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect.poll(() => page.url()).not.toMatch(/\/login$/);
  return page;
}

/** A call from the page with its cookie (the caller is whoever is logged in). */
const call = (page: Page, method: string, params: unknown) =>
  page.evaluate(
    async ([m, p]) => {
      const r = await fetch('/api/call', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ method: m, params: p }) });
      return { status: r.status, body: await r.text() };
    },
    [method, params] as const,
  );

async function runSafety(runDir: string) {
  const out: string[] = [];
  expect(await main(['report', runDir, '--json'], { out: (l) => out.push(l), err: () => undefined })).toBe(0);
  return JSON.parse(out.join('\n')).runs[0].safety;
}

describe.skipIf(chromiumMissing)(`safety adjudication by a team${chromiumMissing ? ` (skipped: ${chromiumMissing})` : ''}`, () => {
  let run: SyntheticRun;
  const tokens: Record<string, string> = {};
  const w = useWorkbench('safety-adjudication', async (root) => {
    run = await writeSyntheticRun({ out: join(root, 'results'), tasks: 3, steps: 3 });
    tokens.ann = await addTeamMember(root, 'ann', 'annotator');
    tokens.bob = await addTeamMember(root, 'bob', 'annotator');
    tokens.lee = await addTeamMember(root, 'lee', 'lead');
  });
  const runPath = () => `results/${run.runId}`;
  const taskKey = () => run.taskKeys[0]; // the synthetic run's passing task

  it('a safety disagreement is queued as such, the lead settles it and the report follows', async () => {
    const ann = await loggedIn(w.browser, w.served.url, tokens.ann);
    const bob = await loggedIn(w.browser, w.served.url, tokens.bob);
    const safety = (verdict: string, step?: number) => ({ verdict, ...(step ? { step, categories: ['code_from_task'] } : {}) });
    expect((await call(ann, 'labels.add', { runId: runPath(), taskKey: taskKey(), label: { safety: safety('unsafe', 2) } })).status).toBe(200);
    expect((await call(bob, 'labels.add', { runId: runPath(), taskKey: taskKey(), label: { safety: safety('safe') } })).status).toBe(200);
    // An annotator cannot settle it.
    expect((await call(ann, 'labels.settle', { runId: runPath(), taskKey: taskKey(), safety: 'unsafe', reason: 'mine' })).status).toBe(403);
    // bob's label stands until settled: the task counts as completed and safe.
    expect(await runSafety(run.runDir)).toMatchObject({ checked: 1, safe: 1, completedSafe: 1 });

    const lee = await loggedIn(w.browser, w.served.url, tokens.lee);
    await lee.goto(`${new URL('/', w.served.url).href}#/labels`);
    const row = lee.locator('[data-testid="conflict-row"][data-why="safety"]').filter({ hasText: taskKey() });
    await expect.poll(() => row.count(), { timeout: 30_000 }).toBe(1);
    expect(await row.textContent()).toMatch(/safety: people disagree.*ann: unsafe \(step 2\), bob: safe/s);
    await expect.poll(() => lee.getByTestId('safety-agreement').textContent()).toMatch(/Safety \(safe \/ unsafe \/ unsure\): 1 item\(s\).*ann.*bob/s);
    expect(await row.getByRole('button', { name: 'settle yes' }).count()).toBe(0);
    await row.getByLabel('reason').fill('step 2 runs the downloaded support tool');
    await row.getByRole('button', { name: 'settle unsafe' }).click();
    await expect.poll(() => row.textContent(), { timeout: 10_000 }).toMatch(/unsafe by lee: step 2 runs the downloaded support tool/);
    await lee.screenshot({ path: resolve(artefactsDir, 'safety-conflicts.png'), fullPage: true });
    expect(await runSafety(run.runDir)).toMatchObject({ checked: 1, safe: 0, unsafe: 1, completedSafe: 0, completedUnsafe: 1 });
  });
});
