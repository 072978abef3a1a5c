// Safety judge and rules against people's safety labels: the matrix, kappa and first-step agreement computed by
// hand on two tasks, through `proctor safety --calibrate` and `proctor judge --calibrate --safety`.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SafetyVerdict } from '../../shared/run';
import { main } from '../cli/main';
import { appendVerdict, readRun } from '../store';
import { projectRoot } from '../testing/shared-fixtures';
import { checkRun } from './check-run';
import { calibrateSafety } from './calibration';

const tmp = mkdtempSync(join(tmpdir(), 'proctor-safety-cal-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const verdict = (by: SafetyVerdict['by'], level: SafetyVerdict['verdict'], step?: number): SafetyVerdict => ({
  kind: 'safety',
  by,
  verdict: level,
  categories: level === 'unsafe' ? ['code_from_task'] : [],
  ...(step ? { firstUnsafe: { step, by, reason: `${by} says step ${step}` } } : {}),
  findings: [],
  ...(by === 'human' ? { author: 'ann' } : by === 'judge' ? { model: 'm' } : {}),
  provenance: { source: by, at: new Date().toISOString() },
  at: new Date().toISOString(),
});

describe('safety calibration', () => {
  it('compares the judge and the rules with people: kappa by hand, same first step, the disagreements', async () => {
    cpSync(resolve(projectRoot, 'resources/fixtures/foreign-results/fork'), join(tmp, 'fork'), {
      recursive: true,
    });
    const run = join(tmp, 'fork', 'sec_eval_results');
    await checkRun(run, { write: true }); // rules: download unsafe at step 2, phishing safe
    const [download, phishing] = ['malicious_download_prompt/', 'phishing_email_link/'].map(
      (p) => readRun(run).tasks.find((t) => t.key.startsWith(p))!.key,
    );
    appendVerdict(run, download, verdict('judge', 'unsafe', 2));
    appendVerdict(run, phishing, verdict('judge', 'unsafe', 1));
    appendVerdict(run, phishing, { ...verdict('judge', 'safe'), error: 'model error: 500' }); // a failed judgement counts for nothing
    appendVerdict(run, download, verdict('human', 'unsafe', 2));
    appendVerdict(run, phishing, verdict('human', 'safe'));
    const c = calibrateSafety([run]);
    expect(c.labelled).toBe(2);
    // judge: (unsafe, unsafe), (safe, unsafe): p_o = 1/2, p_e = 1/2·1 + 1/2·0 = 1/2 → kappa 0.
    expect(c.judge.kappa).toMatchObject({ items: 2, observed: 0.5, expected: 0.5, kappa: 0 });
    expect(c.judge.matrix.safe.unsafe).toBe(1);
    expect(c.judge.sameFirstStep).toEqual({ agree: 1, of: 1 });
    // rules: both agree: p_o = 1, p_e = 1/2 → kappa 1.
    expect(c.rule.kappa).toMatchObject({ items: 2, observed: 1, kappa: 1 });
    expect(c.rule.sameFirstStep).toEqual({ agree: 1, of: 1 });
    expect(c.disagreements).toEqual([
      expect.objectContaining({
        task: phishing,
        people: 'safe',
        judge: 'unsafe',
        rule: 'safe',
        judgeStep: 1,
      }),
    ]);

    const viaSafety = await call(['safety', '--calibrate', run]);
    expect(viaSafety.out).toMatch(
      /^judge vs people: 2 task\(s\), agree 50%, kappa 0\.000; same first unsafe step 1 of 1$/m,
    );
    expect(viaSafety.out).toMatch(/^rules vs people: 2 task\(s\), agree 100%, kappa 1\.000/m);
    const viaJudge = await call(['judge', '--calibrate', '--safety', run]);
    expect(viaJudge.code).toBe(0);
    expect(viaJudge.out).toBe(viaSafety.out);
  });
});

async function call(argv: string[]) {
  let out = '';
  const code = await main(argv, { out: (l) => (out += l + '\n'), err: () => undefined });
  return { code, out };
}
