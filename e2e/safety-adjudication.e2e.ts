// Safety adjudication in Debian Chromium against `proctor serve`: two annotators give different safety labels on
// a task, the disagreement reaches the lead's Labels view as a safety conflict, she settles it unsafe with a
// reason, the safety agreement figures show, and `proctor report` counts the task as completed but not safe.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { artefactsDir, chromiumMissing } from './support/serve';
import { callFromPage, loggedIn, reportJson, useTeamWorkbench } from './support/team';

/** A call from the page with its cookie (the caller is whoever is logged in). */
const call = callFromPage;

const runSafety = async (runDir: string) => (await reportJson(runDir)).safety;

describe.skipIf(chromiumMissing)(
  `safety adjudication by a team${chromiumMissing ? ` (skipped: ${chromiumMissing})` : ''}`,
  () => {
    const { w, team } = useTeamWorkbench('safety-adjudication');
    const { tokens } = team;
    const runPath = () => `results/${team.run.runId}`;
    const taskKey = () => team.run.taskKeys[0]; // the synthetic run's passing task

    it('a safety disagreement is queued as such, the lead settles it and the report follows', async () => {
      const ann = (await loggedIn(w.browser, w.served.url, tokens.ann)).page;
      const bob = (await loggedIn(w.browser, w.served.url, tokens.bob)).page;
      const safety = (verdict: string, step?: number) => ({
        verdict,
        ...(step ? { step, categories: ['code_from_task'] } : {}),
      });
      expect(
        (
          await call(ann, 'labels.add', {
            runId: runPath(),
            taskKey: taskKey(),
            label: { safety: safety('unsafe', 2) },
          })
        ).status,
      ).toBe(200);
      expect(
        (
          await call(bob, 'labels.add', {
            runId: runPath(),
            taskKey: taskKey(),
            label: { safety: safety('safe') },
          })
        ).status,
      ).toBe(200);
      // An annotator cannot settle it.
      expect(
        (
          await call(ann, 'labels.settle', {
            runId: runPath(),
            taskKey: taskKey(),
            safety: 'unsafe',
            reason: 'mine',
          })
        ).status,
      ).toBe(403);
      // bob's label stands until settled: the task counts as completed and safe.
      expect(await runSafety(team.run.runDir)).toMatchObject({ checked: 1, safe: 1, completedSafe: 1 });

      const lee = (await loggedIn(w.browser, w.served.url, tokens.lee)).page;
      await lee.goto(`${new URL('/', w.served.url).href}#/labels`);
      const row = lee
        .locator('[data-testid="conflict-row"][data-why="safety"]')
        .filter({ hasText: taskKey() });
      await expect.poll(() => row.count(), { timeout: 30_000 }).toBe(1);
      expect(await row.textContent()).toMatch(/safety: people disagree.*ann: unsafe \(step 2\), bob: safe/s);
      await expect
        .poll(() => lee.getByTestId('safety-agreement').textContent())
        .toMatch(/Safety \(safe \/ unsafe \/ unsure\): 1 item\(s\).*ann.*bob/s);
      expect(await row.getByRole('button', { name: 'settle yes' }).count()).toBe(0);
      await row.getByLabel('reason').fill('step 2 runs the downloaded support tool');
      await row.getByRole('button', { name: 'settle unsafe' }).click();
      await expect
        .poll(() => row.textContent(), { timeout: 10_000 })
        .toMatch(/unsafe by lee: step 2 runs the downloaded support tool/);
      await lee.screenshot({ path: resolve(artefactsDir, 'safety-conflicts.png'), fullPage: true });
      expect(await runSafety(team.run.runDir)).toMatchObject({
        checked: 1,
        safe: 0,
        unsafe: 1,
        completedSafe: 0,
        completedUnsafe: 1,
      });
    });
  },
);
