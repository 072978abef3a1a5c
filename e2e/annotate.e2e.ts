// Blind labelling by a team of three in Debian Chromium against `proctor serve`: two annotators label the same
// run blind (no score until they submit), step marks by keyboard, the disagreement reaches the lead's conflict
// queue, the lead settles it and `proctor report`'s rate follows; an annotator cannot settle or label as another.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { addTeamMember } from '../src/main/annotate/team';
import { main } from '../src/main/cli/main';
import { artefactsDir, chromiumMissing, useWorkbench } from './support/serve';
import { writeSyntheticRun, type SyntheticRun } from './support/synthetic-run';

async function loggedIn(browser: Browser, base: string, token: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1500, height: 950 } });
  const page = await context.newPage();
  await page.goto(new URL('/', base).href);
  await expect.poll(() => page.url()).toMatch(/\/login$/);
  await page.getByLabel('Token').fill(token);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect.poll(() => page.url()).not.toMatch(/\/login$/);
  return { context, page };
}

async function reportRate(runDir: string): Promise<number> {
  const out: string[] = [];
  expect(await main(['report', runDir, '--json'], { out: (l) => out.push(l), err: () => undefined })).toBe(0);
  return JSON.parse(out.join('\n')).runs[0].report.overall.rate as number;
}

/** A raw API call from the page (with its cookie), as a script in the page could make it. */
const callFromPage = (page: Page, method: string, params: unknown) =>
  page.evaluate(
    async ([m, p]) => {
      const r = await fetch('/api/call', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ method: m, params: p }) });
      return { status: r.status, body: await r.text() };
    },
    [method, params] as const,
  );

describe.skipIf(chromiumMissing)(`blind labelling by a team${chromiumMissing ? ` (skipped: ${chromiumMissing})` : ''}`, () => {
  let run: SyntheticRun;
  const tokens: Record<string, string> = {};
  const w = useWorkbench('annotate', async (root) => {
    run = await writeSyntheticRun({ out: join(root, 'results'), tasks: 3, steps: 3 });
    tokens.ann = await addTeamMember(root, 'ann', 'annotator');
    tokens.bob = await addTeamMember(root, 'bob', 'annotator');
    tokens.lee = await addTeamMember(root, 'lee', 'lead');
  });
  const runPath = () => `results/${run.runId}`;
  const taskKey = () => run.taskKeys[0]; // the synthetic run's only passing task (rule score 1)
  const replayUrl = () => `${new URL('/', w.served.url).href}#/runs/${encodeURIComponent(runPath())}?task=${encodeURIComponent(taskKey())}`;
  const verdictsFile = () => {
    const manifest = JSON.parse(readFileSync(join(run.runDir, 'manifest.json'), 'utf8'));
    return join(run.runDir, manifest.taskInfo[taskKey()].dir, 'verdicts.jsonl');
  };
  const humanLines = () =>
    readFileSync(verdictsFile(), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .filter((v) => v.kind === 'human');

  it('two annotators label blind, the lead settles their conflict, and the report follows', async () => {
    // Task 1 passes by its rule; task 2 fails by its rule but its judge says yes, and the judge comes first.
    expect(await reportRate(run.runDir)).toBeCloseTo(2 / 3, 6);

    // ann: blind until she submits; step marks by keyboard (1 right, 2 wrong).
    const ann = await loggedIn(w.browser, w.served.url, tokens.ann);
    await ann.page.goto(replayUrl());
    await expect.poll(() => ann.page.getByTestId('blind').count(), { timeout: 30_000 }).toBe(1);
    expect(await ann.page.getByTestId('verdicts').textContent()).not.toMatch(/Rule|Judge/);
    expect(await ann.page.locator('.replay-head').textContent()).toContain('score –');
    await expect.poll(() => ann.page.getByTestId('me').textContent()).toMatch(/labelling as ann \(annotator\)/);
    // A finished task opens at its first step; each mark lands on the step in view and moves on to the next.
    await expect.poll(() => ann.page.getByTestId('marking-step').textContent()).toBe('Step 1');
    await ann.page.keyboard.press('1');
    await expect.poll(() => ann.page.getByTestId('step-marks').textContent()).toContain('1: right');
    await expect.poll(() => ann.page.url()).toMatch(/step=2/);
    await ann.page.keyboard.press('2');
    await expect.poll(() => ann.page.getByTestId('step-marks').textContent()).toContain('2: wrong');
    await expect.poll(() => ann.page.getByTestId('marking-step').textContent()).toBe('Step 3 · the last step');
    await ann.page.keyboard.press('2');
    await expect.poll(() => ann.page.getByTestId('annotation').getByRole('status').textContent()).toContain('step 3: wrong · the last step');
    await ann.page.keyboard.press('3'); // the same step again: replaces ann's own mark, the view stays
    await expect.poll(() => ann.page.getByTestId('annotation').getByRole('status').textContent()).toContain('step 3: unnecessary (replaces your earlier mark)');
    await expect.poll(() => ann.page.getByTestId('step-marks').textContent()).toMatch(/1: right.*2: wrong.*3: unnecessary/s);
    await ann.page.screenshot({ path: resolve(artefactsDir, 'annotate-blind.png') });
    await ann.page.getByRole('button', { name: 'not complete', exact: true }).click();
    await expect.poll(() => ann.page.getByTestId('blind').count(), { timeout: 10_000 }).toBe(0);
    await expect.poll(() => ann.page.locator('.replay-head').textContent()).toContain('score 1');
    const annLabels = humanLines().filter((l) => l.author === 'ann');
    expect(annLabels.flatMap((l) => l.steps ?? []).map((s: { step: number; mark: string }) => `${s.step} ${s.mark}`)).toEqual(['1 right', '2 wrong', '3 wrong', '3 unnecessary']);
    expect(annLabels[3].supersedes).toEqual([annLabels[2].at]); // one event supersedes, the history stays
    expect(annLabels.find((l) => l.complete)).toMatchObject({ complete: 'no', seen: 'blind', role: 'annotator' });

    // bob: blind too (ann's label is hidden from him), then labels complete.
    const bob = await loggedIn(w.browser, w.served.url, tokens.bob);
    await bob.page.goto(replayUrl());
    await expect.poll(() => bob.page.getByTestId('blind').count(), { timeout: 30_000 }).toBe(1);
    await expect.poll(() => bob.page.getByTestId('me').textContent()).toMatch(/labelling as bob \(annotator\)/);
    expect(await bob.page.getByTestId('verdicts').textContent()).not.toMatch(/ann:/); // ann's label withheld
    expect(await bob.page.locator('.replay-head').textContent()).toContain('score –');
    await bob.page.getByRole('button', { name: 'complete', exact: true }).click();
    await expect.poll(() => bob.page.getByTestId('verdicts').textContent(), { timeout: 10_000 }).toMatch(/ann: no.*bob: yes/s);

    // An annotator cannot settle, nor label as someone else: 403 and nothing written.
    const before = readFileSync(verdictsFile(), 'utf8');
    const settle = await callFromPage(ann.page, 'labels.settle', { runId: runPath(), taskKey: taskKey(), complete: 'no', reason: 'mine' });
    expect(settle.status).toBe(403);
    const spoof = await callFromPage(ann.page, 'labels.add', { runId: runPath(), taskKey: taskKey(), label: { author: 'bob', complete: 'no' } });
    expect(spoof.status).toBe(403);
    expect(readFileSync(verdictsFile(), 'utf8')).toBe(before);
    expect(await reportRate(run.runDir)).toBeCloseTo(2 / 3, 6); // people disagree, no judge: the rule's 1 stands

    // lee: the conflict is in her queue; she settles it as not complete.
    const lee = await loggedIn(w.browser, w.served.url, tokens.lee);
    await lee.page.goto(`${new URL('/', w.served.url).href}#/labels`);
    const row = lee.page.getByTestId('conflict-row').filter({ hasText: taskKey() });
    await expect.poll(() => row.count(), { timeout: 30_000 }).toBe(1);
    expect(await row.textContent()).toMatch(/ann: no, bob: yes/);
    await expect.poll(() => lee.page.getByTestId('agreement-matrix').first().textContent()).toMatch(/ann.*bob/s);
    await row.getByLabel('reason').fill('step 2 clicked the wrong button');
    await row.getByRole('button', { name: 'settle no' }).click();
    await expect.poll(() => row.textContent(), { timeout: 10_000 }).toMatch(/no by lee: step 2 clicked the wrong button/);
    await lee.page.screenshot({ path: resolve(artefactsDir, 'annotate-conflicts.png'), fullPage: true });
    expect(humanLines().map((l) => l.author)).toEqual(['ann', 'ann', 'ann', 'ann', 'ann', 'bob', 'lee']);
    expect(await reportRate(run.runDir)).toBeCloseTo(1 / 3, 6);

    for (const c of [ann, bob, lee]) await c.context.close();
  });
});
