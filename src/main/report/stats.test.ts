// Statistics against hand-computed cases: pass@k / pass^k, McNemar's exact p, the bootstrap against the textbook
// normal approximation, causes derived from state and score, exclusions, costs and the paired comparison.
import { describe, expect, it } from 'vitest';
import type { AttemptCause, TaskState } from '../../shared/run';
import {
  bootstrapMeanCi,
  causeOf,
  mcnemarExact,
  pairedComparison,
  passAtK,
  passHatK,
  runStats,
  type AttemptRow,
} from './stats';

/** An attempt row of task `<domain>/<id>`. */
function attempt(
  id: string,
  n: number,
  score: number | undefined,
  extra: Partial<AttemptRow> = {},
): AttemptRow {
  const state: TaskState = extra.state ?? 'success';
  return {
    key: `d/${id}#${n}`,
    domain: 'd',
    taskId: id,
    attempt: n,
    state,
    ...(score !== undefined ? { score } : {}),
    ...extra,
  };
}

/** `passes` of `n` attempts of task `id` succeed (score 1), the rest score 0. */
const task = (id: string, n: number, passes: number, extra: Partial<AttemptRow> = {}) =>
  Array.from({ length: n }, (_, i) => attempt(id, i + 1, i < passes ? 1 : 0, extra));

describe('pass@k and pass^k', () => {
  it('a task that passed 3 of 5 attempts: pass@k = 1 − C(2,k)/C(5,k), pass^k = C(3,k)/C(5,k)', () => {
    // C(5,k) = 5, 10, 10, 5, 1; C(2,k) = 2, 1, 0, 0, 0; C(3,k) = 3, 3, 1, 0, 0.
    const at = [1 - 2 / 5, 1 - 1 / 10, 1, 1, 1];
    const hat = [3 / 5, 3 / 10, 1 / 10, 0, 0];
    for (let k = 1; k <= 5; k++) {
      expect(passAtK(5, 3, k)).toBeCloseTo(at[k - 1], 12);
      expect(passHatK(5, 3, k)).toBeCloseTo(hat[k - 1], 12);
    }
    const t = runStats(task('t', 5, 3)).tasks[0];
    expect(t).toMatchObject({ n: 5, k: 3, flaky: true });
    expect(t.passAt.map((x) => +x.toFixed(10))).toEqual([0.6, 0.9, 1, 1, 1]);
    expect(t.passHat.map((x) => +x.toFixed(10))).toEqual([0.6, 0.3, 0.1, 0, 0]);
    expect(t.meanScore).toBeCloseTo(0.6, 12);
  });

  it('all or none of the attempts: no flaky mark, pass@k and pass^k are 0 or 1', () => {
    const s = runStats([...task('all', 3, 3), ...task('none', 3, 0)]);
    const [all, none] = s.tasks;
    expect(all).toMatchObject({ flaky: false, passAt: [1, 1, 1], passHat: [1, 1, 1] });
    expect(none).toMatchObject({ flaky: false, passAt: [0, 0, 0], passHat: [0, 0, 0] });
    expect(s.flaky).toBe(0);
  });

  it('refuses impossible counts', () => {
    expect(() => passAtK(3, 4, 1)).toThrow(/0 ≤ c ≤ n/);
    expect(() => passHatK(3, 1, 4)).toThrow(/1 ≤ k ≤ n/);
  });
});

describe('exact McNemar', () => {
  it('b = 1, c = 7: p = 2·(C(8,0) + C(8,1)) / 2^8 = 18/256', () => {
    expect(mcnemarExact(1, 7)).toBeCloseTo(18 / 256, 12);
    expect(mcnemarExact(7, 1)).toBeCloseTo(18 / 256, 12);
  });
  it('b = 0, c = 5: p = 2/32; equal counts give 1; no discordant pairs give 1', () => {
    expect(mcnemarExact(0, 5)).toBeCloseTo(0.0625, 12);
    expect(mcnemarExact(3, 3)).toBe(1);
    expect(mcnemarExact(0, 0)).toBe(1);
  });
  it('stays finite on large tables', () => {
    const p = mcnemarExact(400, 600);
    expect(p).toBeGreaterThan(0);
    expect(p).toBeLessThan(1e-8);
  });
});

describe('bootstrap interval', () => {
  it('120 of 200 single-attempt tasks: within 1.5 points of the normal approximation 0.6 ± 1.96·√(0.6·0.4/200)', () => {
    const rows = Array.from({ length: 200 }, (_, i) => attempt(`t${i}`, 1, i < 120 ? 1 : 0));
    const s = runStats(rows);
    const half = 1.96 * Math.sqrt((0.6 * 0.4) / 200);
    expect(s.overall.rate).toBeCloseTo(0.6, 12);
    expect(Math.abs(s.overall.ci.low - (0.6 - half))).toBeLessThan(0.015);
    expect(Math.abs(s.overall.ci.high - (0.6 + half))).toBeLessThan(0.015);
    expect(s.method).toMatch(
      /percentile bootstrap over tasks \(attempts kept together\), 2000 resamples, seed 24/,
    );
  });

  it("keeps a task's attempts together: 20 tasks always pass, 20 never (5 attempts each) → the width of 40 tasks, not of 200 attempts", () => {
    const rows = Array.from({ length: 40 }, (_, i) => task(`t${i}`, 5, i < 20 ? 5 : 0)).flat();
    const { ci, rate } = runStats(rows).overall;
    expect(rate).toBe(0.5);
    const perTask = 1.96 * Math.sqrt(0.25 / 40); // 0.155
    const perAttempt = 1.96 * Math.sqrt(0.25 / 200); // 0.069
    const half = (ci.high - ci.low) / 2;
    expect(Math.abs(half - perTask)).toBeLessThan(0.03);
    expect(half).toBeGreaterThan(perAttempt * 1.6);
  });

  it('breakdown intervals: each bucket within 2 points of its own normal approximation, and a one-task bucket gets its point', () => {
    // app a: 120 of 200 tasks pass (0.6); app b: 30 of 100 (0.3); app c: one task that passes.
    const rows = [
      ...Array.from({ length: 200 }, (_, i) => attempt(`a${i}`, 1, i < 120 ? 1 : 0, { app: 'a' })),
      ...Array.from({ length: 100 }, (_, i) => attempt(`b${i}`, 1, i < 30 ? 1 : 0, { app: 'b' })),
      attempt('c0', 1, 1, { app: 'c' }),
    ];
    const s = runStats(rows, { dims: ['app'] });
    const [a, b, c] = s.by.app;
    for (const [bucket, p, m] of [
      [a, 0.6, 200],
      [b, 0.3, 100],
    ] as const) {
      const half = 1.96 * Math.sqrt((p * (1 - p)) / m);
      expect(bucket.rate).toBeCloseTo(p, 12);
      expect(Math.abs(bucket.ci.low - (p - half))).toBeLessThan(0.02);
      expect(Math.abs(bucket.ci.high - (p + half))).toBeLessThan(0.02);
    }
    expect(c).toMatchObject({ bucket: 'c', rate: 1, tasks: 1, ci: { low: 1, high: 1 } });
    // The overall interval does not depend on the breakdowns asked for.
    expect(s.overall.ci).toEqual(runStats(rows).overall.ci);
  });

  it('the same seed gives the same interval; another seed moves it a little', () => {
    const values = Array.from({ length: 100 }, (_, i) => (i * 0.6180339887) % 1); // no lattice: bounds differ by seed
    expect(bootstrapMeanCi(values, { seed: 7 })).toEqual(bootstrapMeanCi(values, { seed: 7 }));
    const other = bootstrapMeanCi(values, { seed: 8 });
    expect(other).not.toEqual(bootstrapMeanCi(values, { seed: 7 }));
    expect(Math.abs(other.low - bootstrapMeanCi(values, { seed: 7 }).low)).toBeLessThan(0.03);
  });
});

describe('causes', () => {
  it('derives a cause from state and score where the run recorded none', () => {
    const cases: [TaskState, number | undefined, AttemptCause | undefined][] = [
      ['success', 1, 'success'],
      ['success', 0, 'agent_failure'],
      ['success', undefined, 'grading_error'],
      ['max_steps_error', 0, 'step_limit'],
      ['max_steps_error', 1, 'success'],
      ['setup_error', 0, 'env_error'],
      ['env_error', undefined, 'env_error'],
      ['timed_out', 0, 'env_error'],
      ['agent_error', 0, 'agent_error'],
      ['skipped', undefined, undefined],
      ['running', undefined, undefined],
    ];
    for (const [state, score, cause] of cases)
      expect(causeOf({ state, score }), `${state} ${score}`).toEqual({
        derived: true,
        ...(cause ? { cause } : {}),
      });
    expect(causeOf({ state: 'success', score: 0, cause: 'grading_error' })).toEqual({
      cause: 'grading_error',
      derived: false,
    });
  });

  it('leaves env and grading errors out of the rate by default, lists them, and counts them as fails when asked', () => {
    const rows = [
      ...task('a', 2, 2),
      attempt('a', 3, 0, { state: 'setup_error' }),
      attempt('b', 1, 0),
      attempt('b', 2, 0, { cause: 'grading_error' }),
      attempt('c', 1, undefined, { state: 'env_error' }),
    ];
    const s = runStats(rows);
    // a: 2/2, b: 0/1, c: no counted attempt → rate (1 + 0) / 2.
    expect(s.overall).toMatchObject({ rate: 0.5, tasks: 2, attempts: 3, successes: 2 });
    expect(s.excluded).toEqual([
      { key: 'd/a#3', cause: 'env_error' },
      { key: 'd/b#2', cause: 'grading_error' },
      { key: 'd/c#1', cause: 'env_error' },
    ]);
    expect(s.causes).toEqual({ success: 2, env_error: 2, agent_failure: 1, grading_error: 1 });
    const all = runStats(rows, { includeErrors: true });
    // a: 2/3, b: 0/2, c: 0/1.
    expect(all.overall.rate).toBeCloseTo((2 / 3 + 0 + 0) / 3, 12);
    expect(all.excluded).toEqual([]);
    expect(all.tasks[0]).toMatchObject({ n: 3, k: 2, flaky: true });
  });
});

describe('cost', () => {
  it("cost per task, per success and time per success from each attempt's cost", () => {
    const cost = (usd: number, wallMs: number) => ({ cost: { usd, wallMs, tokensIn: 1000, tokensOut: 10 } });
    const rows = [
      attempt('a', 1, 1, cost(0.1, 1000)),
      attempt('a', 2, 0, cost(0.3, 3000)),
      attempt('b', 1, 1, cost(0.2, 2000)),
      attempt('b', 2, 0, { state: 'env_error', ...cost(0.0, 500) }),
    ];
    const c = runStats(rows).cost;
    expect(c.totalUsd).toBeCloseTo(0.6, 12);
    expect(c.usdPerTask).toBeCloseTo(0.3, 12); // 2 tasks
    expect(c.usdPerSuccess).toBeCloseTo(0.3, 12); // 2 successes
    expect(c.wallMsPerSuccess).toBeCloseTo(3250, 9);
    expect(c).toMatchObject({ tokensIn: 4000, tokensOut: 40, withUsd: 4, withTime: 4 });
  });
});

describe('paired comparison', () => {
  it('B passes 10 more of 40 common tasks: difference, interval excluding 0, McNemar, flips and the sentence', () => {
    const a: AttemptRow[] = [];
    const b: AttemptRow[] = [];
    for (let i = 0; i < 40; i++) {
      a.push(attempt(`t${i}`, 1, i < 15 ? 1 : 0));
      b.push(attempt(`t${i}`, 1, i < 25 ? 1 : 0));
    }
    b.push(attempt('only-b', 1, 1));
    const p = pairedComparison({ label: 'A', rows: a }, { label: 'B', rows: b });
    expect(p).toMatchObject({ common: 40, onlyA: 0, onlyB: 1, significant: true });
    expect(p.diff).toBeCloseTo(0.25, 12);
    expect(p.mcnemar).toEqual({ aOnly: 0, bOnly: 10, p: 2 / 1024 });
    expect(p.toB.map((t) => t.task)).toEqual(Array.from({ length: 10 }, (_, i) => `d/t${15 + i}`));
    expect(p.toA).toEqual([]);
    expect(p.ci.low).toBeGreaterThan(0);
    expect(p.ci.low).toBeLessThan(0.25);
    expect(p.sentence).toMatch(
      /^B is better by 25\.0 points, 95 % CI \d+\.\d–\d+\.\d \(exact McNemar p = 0\.002 on 10 discordant tasks\)$/,
    );
  });

  it('two flips each way: no significant difference', () => {
    const a = Array.from({ length: 20 }, (_, i) => attempt(`t${i}`, 1, i < 10 ? 1 : 0));
    const b = Array.from({ length: 20 }, (_, i) => attempt(`t${i}`, 1, i >= 2 && i < 12 ? 1 : 0));
    const p = pairedComparison({ label: 'A', rows: a }, { label: 'B', rows: b });
    expect(p.diff).toBe(0);
    expect(p.significant).toBe(false);
    expect(p.mcnemar.p).toBe(1);
    expect(p.toA.map((t) => t.task)).toEqual(['d/t0', 'd/t1']);
    expect(p.toB.map((t) => t.task)).toEqual(['d/t10', 'd/t11']);
    expect(p.sentence).toMatch(
      /^no significant difference: B − A = ±0\.0 points, 95 % CI −\d+\.\d to \d+\.\d/,
    );
  });
});
