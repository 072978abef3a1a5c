import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Completion } from '../../shared/run';
import { agreement, calibrate, formatCalibration, type Pair } from './calibration';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'proctor-calibration-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

// Hand-computed: 10 pairs, 7 agree → p_o = 0.7; judge yes/no/unsure = 0.5/0.4/0.1, reference yes/no = 0.6/0.4
// → p_e = 0.5·0.6 + 0.4·0.4 = 0.46 → kappa = 0.24 / 0.54 = 0.4444…; precision(yes) = 4/5, recall(yes) = 4/6.
const spec: [Completion, 'yes' | 'no', number][] = [
  ['yes', 'yes', 4],
  ['yes', 'no', 1],
  ['no', 'yes', 1],
  ['no', 'no', 3],
  ['unsure', 'yes', 1],
];

function pairs(): Pair[] {
  const out: Pair[] = [];
  for (const [judge, reference, count] of spec)
    for (let i = 0; i < count; i++) out.push({ taskKey: `d/${judge}-${reference}-${i}`, judge, reference });
  return out;
}

describe('agreement', () => {
  it('gives the hand-computed matrix, precision, recall and kappa', () => {
    const a = agreement(pairs());
    expect(a.matrix).toEqual({ yes: { yes: 4, no: 1 }, no: { yes: 1, no: 3 }, unsure: { yes: 1, no: 0 } });
    expect(a.n).toBe(10);
    expect(a.accuracy).toBeCloseTo(0.7, 12);
    expect(a.precisionYes).toBeCloseTo(0.8, 12);
    expect(a.recallYes).toBeCloseTo(4 / 6, 12);
    expect(a.kappa).toBeCloseTo(0.24 / 0.54, 12);
    expect(a.disagreements.map((d) => `${d.judge}/${d.reference}`).sort()).toEqual([
      'no/yes',
      'unsure/yes',
      'yes/no',
    ]);
  });

  it('is 1 for perfect agreement, 0 for chance-level, and undefined with nothing to compare', () => {
    expect(
      agreement([
        { taskKey: 'a', judge: 'yes', reference: 'yes' },
        { taskKey: 'b', judge: 'no', reference: 'no' },
      ]).kappa,
    ).toBe(1);
    // judge yes,yes,no vs reference yes,yes,yes: p_o = 2/3, p_e = 2/3 → 0
    expect(
      agreement([
        { taskKey: 'a', judge: 'yes', reference: 'yes' },
        { taskKey: 'b', judge: 'no', reference: 'yes' },
        { taskKey: 'c', judge: 'yes', reference: 'yes' },
      ]).kappa,
    ).toBeCloseTo(0, 12);
    expect(agreement([]).kappa).toBeUndefined();
  });
});

describe('calibrate a stored run', () => {
  it('reads rule scores and the latest judge verdicts and human labels of each task', () => {
    const runDir = path.join(root, 'run');
    const tasks: string[] = [];
    const taskInfo: Record<string, { dir: string; instruction: string }> = {};
    const at = new Date().toISOString();
    const judgeVerdict = (complete: Completion, error?: string) => ({
      kind: 'judge',
      reason: `judge says ${complete}`,
      subScores: [],
      complete,
      model: 'j',
      options: {},
      at,
      ...(error ? { error } : {}),
    });
    const add = (id: string, score: number | undefined, verdicts: object[]) => {
      const key = `d/${id}`;
      const rel = `pyautogui/screenshot/m/d/${id}`;
      tasks.push(key);
      taskInfo[key] = { dir: rel, instruction: 'x' };
      fs.mkdirSync(path.join(runDir, rel), { recursive: true });
      fs.writeFileSync(
        path.join(runDir, rel, 'summary.json'),
        JSON.stringify({
          id,
          results: {
            score,
            state: score === undefined ? 'env_error' : 'success',
            eval_error: null,
            messages: [],
            total_tokens: 0,
            total_timing: 1,
          },
        }),
      );
      fs.writeFileSync(
        path.join(runDir, rel, 'verdicts.jsonl'),
        verdicts.map((v) => JSON.stringify(v) + '\n').join(''),
      );
    };
    let i = 0;
    for (const [judge, reference, count] of spec)
      for (let k = 0; k < count; k++) {
        // an older, different judge verdict first: only the latest counts
        const human = i < 3 ? [{ kind: 'human', author: 'ann', complete: i === 1 ? 'no' : 'yes', at }] : [];
        add(`t${i++}`, reference === 'yes' ? 1 : 0, [
          judgeVerdict(judge === 'yes' ? 'no' : 'yes'),
          judgeVerdict(judge),
          ...human,
        ]);
      }
    add('frac', 0.5, [judgeVerdict('yes')]);
    add('failed', 1, [judgeVerdict('unsure', 'model error: HTTP 500')]);
    add('unjudged', 0, []);
    add('crashed', undefined, [judgeVerdict('no')]);
    fs.writeFileSync(
      path.join(runDir, 'manifest.json'),
      JSON.stringify({
        runId: 'run',
        startedAt: at,
        args: [],
        agent: 'llm',
        model: 'm',
        actionSpace: 'pyautogui',
        observation: 'screenshot',
        proctorVersion: '0',
        machine: { host: 'h', platform: 'linux', cpus: 1 },
        tasks,
        taskInfo,
      }),
    );
    fs.writeFileSync(path.join(runDir, 'events.jsonl'), '');

    const c = calibrate(runDir);
    expect(c.tasks).toBe(14);
    expect(c.vsRule.matrix).toEqual({
      yes: { yes: 4, no: 1 },
      no: { yes: 1, no: 3 },
      unsure: { yes: 1, no: 0 },
    });
    expect(c.vsRule.kappa).toBeCloseTo(0.24 / 0.54, 12);
    expect(c.fractional).toEqual([{ taskKey: 'd/frac', score: 0.5, judge: 'yes' }]);
    // human labels on t0..t2: judge yes, yes, yes vs human yes, no, yes → p_o = 2/3 = p_e → kappa 0
    expect(c.vsHuman?.n).toBe(3);
    expect(c.vsHuman?.matrix.yes).toEqual({ yes: 2, no: 1 });
    expect(c.vsHuman?.kappa).toBeCloseTo(0, 12);
    expect(c.vsHuman?.precisionYes).toBeCloseTo(2 / 3, 12);
    expect(c.reviewQueue.map((r) => r.taskKey).sort()).toEqual(['d/failed', 'd/t9']);
    expect(c.reviewQueue.find((r) => r.taskKey === 'd/failed')?.error).toMatch(/HTTP 500/);
    expect(c.notCompared.map((n) => n.taskKey).sort()).toEqual(['d/crashed', 'd/failed', 'd/unjudged']);

    const text = formatCalibration(c);
    expect(text).toMatch(/judge yes\s+4\s+1/);
    expect(text).toMatch(/judge no\s+1\s+3/);
    expect(text).toMatch(/judge unsure\s+1\s+0/);
    expect(text).toContain("Cohen's kappa 0.444");
    expect(text).toContain('precision(yes) 80.0%');
    expect(text).toContain('recall(yes) 66.7%');
  });
});
