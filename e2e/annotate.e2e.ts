// Blind labelling by a team of three in Debian Chromium against `proctor serve`: two annotators label the same
// run blind (no score until they submit), step marks by keyboard, the disagreement reaches the lead's conflict
// queue, the lead settles it and `proctor report`'s rate follows; an annotator cannot settle or label as another.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { artefactsDir, chromiumMissing } from './support/serve';
import { callFromPage, loggedIn, reportJson, useTeamWorkbench } from './support/team';

async function reportRate(runDir: string): Promise<number> {
  return ((await reportJson(runDir)).report as { overall: { rate: number } }).overall.rate;
}

describe.skipIf(chromiumMissing)(
  `blind labelling by a team${chromiumMissing ? ` (skipped: ${chromiumMissing})` : ''}`,
  () => {
    const { w, team } = useTeamWorkbench('annotate');
    const { tokens } = team;
    const runPath = () => `results/${team.run.runId}`;
    const taskKey = () => team.run.taskKeys[0]; // the synthetic run's only passing task (rule score 1)
    const replayUrl = () =>
      `${new URL('/', w.served.url).href}#/runs/${encodeURIComponent(runPath())}?task=${encodeURIComponent(taskKey())}`;
    const verdictsFile = () => {
      const manifest = JSON.parse(readFileSync(join(team.run.runDir, 'manifest.json'), 'utf8'));
      return join(team.run.runDir, manifest.taskInfo[taskKey()].dir, 'verdicts.jsonl');
    };
    const humanLines = () =>
      readFileSync(verdictsFile(), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
        .filter((v) => v.kind === 'human');

    it('two annotators label blind, the lead settles their conflict, and the report follows', async () => {
      // Task 1 passes by its rule; task 2 fails by its rule but its judge says yes, and the judge comes first.
      expect(await reportRate(team.run.runDir)).toBeCloseTo(2 / 3, 6);

      // ann: blind until she submits; step marks by keyboard (1 right, 2 wrong).
      const ann = await loggedIn(w.browser, w.served.url, tokens.ann);
      await ann.page.goto(replayUrl());
      await expect.poll(() => ann.page.getByTestId('blind').count(), { timeout: 30_000 }).toBe(1);
      expect(await ann.page.getByTestId('verdicts').textContent()).not.toMatch(/Rule|Judge/);
      expect(await ann.page.locator('.replay-head').textContent()).toContain('score –');
      await expect
        .poll(() => ann.page.getByTestId('me').textContent())
        .toMatch(/labelling as ann \(annotator\)/);
      // A finished task opens at its first step; each mark lands on the step in view and moves on to the next.
      await expect.poll(() => ann.page.getByTestId('marking-step').textContent()).toBe('Step 1');
      await ann.page.keyboard.press('1');
      await expect.poll(() => ann.page.getByTestId('step-marks').textContent()).toContain('1: right');
      await expect.poll(() => ann.page.url()).toMatch(/step=2/);
      await ann.page.keyboard.press('2');
      await expect.poll(() => ann.page.getByTestId('step-marks').textContent()).toContain('2: wrong');
      await expect
        .poll(() => ann.page.getByTestId('marking-step').textContent())
        .toBe('Step 3 · the last step');
      await ann.page.keyboard.press('2');
      await expect
        .poll(() => ann.page.getByTestId('annotation').getByRole('status').textContent())
        .toContain('step 3: wrong · the last step');
      await ann.page.keyboard.press('3'); // the same step again: replaces ann's own mark, the view stays
      await expect
        .poll(() => ann.page.getByTestId('annotation').getByRole('status').textContent())
        .toContain('step 3: unnecessary (replaces your earlier mark)');
      await expect
        .poll(() => ann.page.getByTestId('step-marks').textContent())
        .toMatch(/1: right.*2: wrong.*3: unnecessary/s);
      await ann.page.screenshot({ path: resolve(artefactsDir, 'annotate-blind.png') });
      await ann.page.getByRole('button', { name: 'not complete', exact: true }).click();
      await expect.poll(() => ann.page.getByTestId('blind').count(), { timeout: 10_000 }).toBe(0);
      await expect.poll(() => ann.page.locator('.replay-head').textContent()).toContain('score 1');
      const annLabels = humanLines().filter((l) => l.author === 'ann');
      expect(
        annLabels
          .flatMap((l) => l.steps ?? [])
          .map((s: { step: number; mark: string }) => `${s.step} ${s.mark}`),
      ).toEqual(['1 right', '2 wrong', '3 wrong', '3 unnecessary']);
      expect(annLabels[3].supersedes).toEqual([annLabels[2].at]); // one event supersedes, the history stays
      expect(annLabels.find((l) => l.complete)).toMatchObject({
        complete: 'no',
        seen: 'blind',
        role: 'annotator',
      });

      // bob: blind too (ann's label is hidden from him), then labels complete.
      const bob = await loggedIn(w.browser, w.served.url, tokens.bob);
      await bob.page.goto(replayUrl());
      await expect.poll(() => bob.page.getByTestId('blind').count(), { timeout: 30_000 }).toBe(1);
      await expect
        .poll(() => bob.page.getByTestId('me').textContent())
        .toMatch(/labelling as bob \(annotator\)/);
      expect(await bob.page.getByTestId('verdicts').textContent()).not.toMatch(/ann:/); // ann's label withheld
      expect(await bob.page.locator('.replay-head').textContent()).toContain('score –');
      await bob.page.getByRole('button', { name: 'complete', exact: true }).click();
      await expect
        .poll(() => bob.page.getByTestId('verdicts').textContent(), { timeout: 10_000 })
        .toMatch(/ann: no.*bob: yes/s);

      // An annotator cannot settle, nor label as someone else: 403 and nothing written.
      const before = readFileSync(verdictsFile(), 'utf8');
      const settle = await callFromPage(ann.page, 'labels.settle', {
        runId: runPath(),
        taskKey: taskKey(),
        complete: 'no',
        reason: 'mine',
      });
      expect(settle.status).toBe(403);
      const spoof = await callFromPage(ann.page, 'labels.add', {
        runId: runPath(),
        taskKey: taskKey(),
        label: { author: 'bob', complete: 'no' },
      });
      expect(spoof.status).toBe(403);
      expect(readFileSync(verdictsFile(), 'utf8')).toBe(before);
      expect(await reportRate(team.run.runDir)).toBeCloseTo(2 / 3, 6); // people disagree, no judge: the rule's 1 stands

      // lee: the conflict is in her queue; she settles it as not complete.
      const lee = await loggedIn(w.browser, w.served.url, tokens.lee);
      await lee.page.goto(`${new URL('/', w.served.url).href}#/labels`);
      const row = lee.page.getByTestId('conflict-row').filter({ hasText: taskKey() });
      await expect.poll(() => row.count(), { timeout: 30_000 }).toBe(1);
      expect(await row.textContent()).toMatch(/ann: no, bob: yes/);
      await expect
        .poll(() => lee.page.getByTestId('agreement-matrix').first().textContent())
        .toMatch(/ann.*bob/s);
      await row.getByLabel('reason').fill('step 2 clicked the wrong button');
      await row.getByRole('button', { name: 'settle no' }).click();
      await expect
        .poll(() => row.textContent(), { timeout: 10_000 })
        .toMatch(/no by lee: step 2 clicked the wrong button/);
      await lee.page.screenshot({ path: resolve(artefactsDir, 'annotate-conflicts.png'), fullPage: true });
      expect(humanLines().map((l) => l.author)).toEqual(['ann', 'ann', 'ann', 'ann', 'ann', 'bob', 'lee']);
      expect(await reportRate(team.run.runDir)).toBeCloseTo(1 / 3, 6);

      for (const c of [ann, bob, lee]) await c.context.close();
    });
  },
);
