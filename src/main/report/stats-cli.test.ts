// `proctor report` with statistics on runs written through the real store: the interval and its method, causes
// derived from state and score, left-out env errors with the re-run command, --include-errors, --compare's paired
// result, --json and the tidy --csv.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunWriter, taskDirFor } from '../store';
import type { TaskState } from '../../shared/run';
import type { PairedComparison, RunStats } from '../../shared/run-stats';
import { shownPath } from '../cli/command';
import { main } from '../cli/main';
import { csvColumns } from './csv';

type Ending = { state: TaskState; score: number; seconds?: number };

async function writeRun(out: string, agent: string, endings: Record<string, Ending>): Promise<string> {
  const layout = { actionSpace: 'pyautogui', observation: 'screenshot', agent } as const;
  const keys = Object.keys(endings);
  const taskInfo = Object.fromEntries(
    keys.map((k) => [k, { dir: taskDirFor(layout, k.split('/')[0], k.split('/')[1]), app: k.split('/')[0] }]),
  );
  const run = await RunWriter.create(out, { ...layout, args: [], tasks: keys, taskInfo });
  run.event({ kind: 'run.started', runId: run.runId, at: new Date().toISOString(), tasks: keys });
  for (const key of keys) {
    const tw = run.openTask(key);
    tw.started();
    const { state, score, seconds = 1 } = endings[key];
    await tw.finish(state, {
      taskFields: { id: key.split('/')[1] },
      results: {
        score,
        eval_error: null,
        state,
        messages: [],
        total_tokens: 0,
        total_timing: seconds,
        steps: 0,
      },
    });
  }
  run.event({ kind: 'run.finished', runId: run.runId, at: new Date().toISOString() });
  return run.runDir;
}

const keys = Array.from(
  { length: 12 },
  (_, i) => `${i % 2 ? 'terminal' : 'chromium'}/t${String(i + 1).padStart(2, '0')}`,
);
let out: string;
let oracle: string;
let noop: string;

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), 'proctor-stats-cli-'));
  // The noop agent: every task finished with score 0 but t12, whose setup failed.
  noop = await writeRun(
    out,
    'noop',
    Object.fromEntries(
      keys.map((k, i) => [k, i === 11 ? { state: 'setup_error', score: 0 } : { state: 'success', score: 0 }]),
    ),
  );
  // The oracle: every task scores 1 but t03, whose environment died.
  oracle = await writeRun(
    out,
    'oracle',
    Object.fromEntries(
      keys.map((k, i) => [
        k,
        i === 2 ? { state: 'env_error', score: 0 } : { state: 'success', score: 1, seconds: 4 },
      ]),
    ),
  );
});
afterAll(() => rmSync(out, { recursive: true, force: true }));

async function report(...argv: string[]) {
  const outLines: string[] = [];
  const errLines: string[] = [];
  const code = await main(['report', ...argv], {
    out: (l) => outLines.push(l),
    err: (l) => errLines.push(l),
  });
  return { code, out: outLines.join('\n'), err: errLines.join('\n') };
}

describe('proctor report: statistics', () => {
  it('prints the interval with its method, the causes, the left-out env error with the re-run command, and time per success', async () => {
    const r = await report(oracle, '--by', 'app');
    expect(r.code, r.err).toBe(0);
    // 11 counted tasks, all passed: the bootstrap of a constant is the constant.
    expect(r.out).toContain(
      'Success rate with 95 % CI: 100.0 % [100.0–100.0]  (11 of 11 attempts succeeded over 11 tasks)',
    );
    expect(r.out).toContain(
      '95 % CI: percentile bootstrap over tasks (attempts kept together), 2000 resamples, seed 24',
    );
    expect(r.out).toMatch(/Left out of the rates: 1 attempt\(s\) ended by an env or grading error/);
    expect(r.out).toContain(`npx proctor run --resume --retry-env-errors ${shownPath(oracle)}`); // as the report shows paths
    expect(r.out).toContain('chromium/t03  (env error)');
    // The store's reader may attribute causes itself; else the report derives them (and says so).
    expect(r.out).toMatch(
      /^Causes: success 11, env error 1( \(all derived from state and score: the run recorded none\))?$/m,
    );
    // 11 × 4 s + 1 s over 11 successes.
    expect(r.out).toContain('time per success 4.1 s');
    expect(r.out).toMatch(
      /App, with 95 % CI\n.*\n.*\nchromium\s+100\.0 % \[100\.0–100\.0\]\s+5\s+5\nterminal\s+100\.0 % \[100\.0–100\.0\]\s+6\s+6/,
    );
  });

  it('--include-errors counts the env error as a failure', async () => {
    const r = await report(oracle, '--include-errors', '--json');
    const stats = JSON.parse(r.out).runs[0].stats as RunStats;
    expect(stats.includeErrors).toBe(true);
    expect(stats.overall).toMatchObject({ tasks: 12, successes: 11 });
    expect(stats.overall.rate).toBeCloseTo(11 / 12, 12);
    expect(stats.overall.ci.low).toBeLessThan(1);
  });

  it('--compare: the oracle better with an interval excluding 0, every noop attempt an agent failure', async () => {
    const r = await report('--compare', noop, oracle, '--json');
    expect(r.code, r.err).toBe(0);
    const json = JSON.parse(r.out) as {
      runs: { stats: RunStats; label: string }[];
      paired: PairedComparison[];
    };
    const [a, b] = json.runs.map((x) => x.label);
    const p = json.paired[0];
    // Common counted tasks: all but t03 (oracle env error) and t12 (noop setup error) → 10, each 0 → 1.
    expect(p).toMatchObject({
      common: 10,
      onlyA: 1,
      onlyB: 1,
      rateA: 0,
      rateB: 1,
      diff: 1,
      significant: true,
    });
    expect(p.mcnemar).toEqual({ aOnly: 0, bOnly: 10, p: 2 / 1024 });
    expect(p.ci.low).toBeGreaterThan(0);
    expect(p.sentence).toBe(
      `${b} is better by 100.0 points, 95 % CI 100.0–100.0 (exact McNemar p = 0.002 on 10 discordant tasks)`,
    );
    expect(json.runs[0].stats.causes).toEqual({ agent_failure: 11, env_error: 1 });
    const text = await report('--compare', noop, oracle);
    expect(text.out).toContain(
      `Paired comparison, ${b} against ${a}, over 10 common tasks (left out: 1 only in ${a}, 1 only in ${b}):`,
    );
    expect(text.out).toContain(`  ${p.sentence}`);
    expect(text.out).toContain('    + chromium/t01  (0.0 % → 100.0 %)');
  });

  it('--csv writes one row per attempt with every field', async () => {
    const file = join(out, 'attempts.csv');
    const r = await report(noop, oracle, '--csv', file);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain('Wrote 24 attempt rows to');
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(lines[0]).toBe(csvColumns.join(','));
    expect(lines).toHaveLength(25);
    const rows = lines
      .slice(1)
      .map((l) => Object.fromEntries(l.split(',').map((v, i) => [csvColumns[i], v])));
    const t03 = rows.filter((x) => x.key === 'chromium/t03');
    expect(
      t03.map((x) => [
        x.run,
        x.state,
        x.score,
        x.cause,
        x.counted,
        x.attempt,
        x.app,
        x.wall_ms,
        x.task_k,
        x.task_n,
      ]),
    ).toEqual([
      [noop.split('/').at(-1), 'success', '0', 'agent_failure', 'true', '1', 'chromium', '1000', '0', '1'],
      [oracle.split('/').at(-1), 'env_error', '0', 'env_error', 'false', '1', 'chromium', '1000', '0', '0'],
    ]);
    expect(t03.map((x) => x.cause_derived).every((v) => v === 'true' || v === 'false')).toBe(true);
  });

  it('refuses a bad seed and an unwritable CSV, naming the flag', async () => {
    expect((await report(oracle, '--seed', 'x')).err).toMatch(/--seed x: give a whole number/);
    const r = await report(oracle, '--csv', join(out, 'no', 'such', 'dir.csv'));
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/--csv .*dir\.csv: cannot write it/);
  });
});
