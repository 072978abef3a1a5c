// The brittle-evaluator badge beside the rule score, in Debian Chromium against `proctor serve`.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chromiumMissing, useWorkbench } from './support/serve';
import { writeSyntheticRun, type SyntheticRun } from './support/synthetic-run';

describe.skipIf(chromiumMissing)(
  `brittle-evaluator badge${chromiumMissing ? ` (skipped: ${chromiumMissing})` : ''}`,
  () => {
    let run: SyntheticRun;
    const flag = 'compare_csv (/evaluation): quoted cells: faithful 0, robust 1';
    const w = useWorkbench('brittle', async (root) => {
      run = await writeSyntheticRun({ out: join(root, 'results'), tasks: 2, steps: 2 });
      // a re-grading of task 1 under the Spider2-V profile, whose line comparison rejects quoted cells
      run.writer.appendVerdict(run.taskKeys[0], {
        kind: 'rule',
        score: 0,
        profile: 'spider2v',
        brittle: [flag],
        metrics: [
          {
            metric: 'compare_csv',
            score: 0,
            reason: 'line 1 differs as text: got \'"region","total"\', expected \'region,total\'',
            pointer: '/evaluation',
            secondOpinion: { score: 1, reason: 'all 3 records match' },
            brittle: 'quoted cells: faithful 0, robust 1',
          },
        ],
        at: new Date().toISOString(),
      });
    });

    it('shows the badge, the profile and the named difference beside the rule score of a flagged task only', async () => {
      const page = await w.browser.newPage({ viewport: { width: 1400, height: 900 } });
      const open = (key: string) =>
        page.goto(
          `${w.served.url}#/runs/${encodeURIComponent(`results/${run.runId}`)}?task=${encodeURIComponent(key)}`,
        );
      await open(run.taskKeys[0]);
      await expect.poll(() => page.getByTestId('brittle-badge').count(), { timeout: 30_000 }).toBe(1);
      expect(await page.getByTestId('brittle-badge').getAttribute('title')).toContain(flag);
      const text = await page.getByTestId('verdicts').textContent();
      expect(text).toContain('graded as spider2v');
      expect(text).toContain('brittle: quoted cells: faithful 0, robust 1 (robust: all 3 records match)');
      await open(run.taskKeys[1]);
      await expect
        .poll(() => page.getByTestId('verdicts').textContent(), { timeout: 30_000 })
        .not.toContain('graded as spider2v');
      expect(await page.getByTestId('verdicts').textContent()).toMatch(/Rule/);
      expect(await page.getByTestId('brittle-badge').count()).toBe(0);
    });
  },
);
