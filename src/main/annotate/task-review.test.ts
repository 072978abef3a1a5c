// Task cross-validation reviews: a task's status from its reviewers' latest checklists, and who may review.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createWorkbench } from '../workbench/workbench';
import { taskStatus, type TaskReview } from './task-review';
import { tempRoot } from './testing/runs';
import { appendEvidence, selfTestEvidence } from './evidence';

const all = (verdict: 'pass' | 'fail' | 'unsure') =>
  Object.fromEntries(['a', 'b', 'c', 'd', 'e'].map((c) => [c, { verdict }])) as TaskReview['checks'];
const review = (author: string, checks: TaskReview['checks'], at = '1'): TaskReview => ({
  kind: 'task.review',
  task: 't.json',
  author,
  checks,
  at,
});

describe('task status', () => {
  it("follows each reviewer's latest review; the author does not count", () => {
    expect(taskStatus([]).status).toBe('draft');
    expect(taskStatus([review('ann', all('pass'))]).status).toBe('in review');
    expect(taskStatus([review('ann', all('pass')), review('bob', all('pass'))]).status).toBe('accepted');
    expect(taskStatus([review('ann', all('pass')), review('bob', all('pass'))], 'bob').status).toBe(
      'in review',
    );
    expect(
      taskStatus([
        review('ann', all('pass')),
        review('bob', { ...all('pass'), c: { verdict: 'fail', note: 'clock in the file' } }),
      ]).status,
    ).toBe('disputed');
    expect(
      taskStatus([review('ann', all('fail')), review('bob', { ...all('pass'), e: { verdict: 'fail' } })])
        .status,
    ).toBe('rejected');
    expect(taskStatus([review('ann', all('pass')), review('bob', { a: { verdict: 'pass' } })]).status).toBe(
      'in review',
    );
    // bob changes his mind: his later review counts, the earlier stays in the log
    const s = taskStatus([
      review('ann', all('pass')),
      review('bob', all('fail'), '1'),
      review('bob', all('pass'), '2'),
    ]);
    expect(s).toEqual({
      status: 'accepted',
      reviewers: [
        { person: 'ann', outcome: 'pass', at: '1' },
        { person: 'bob', outcome: 'pass', at: '2' },
      ],
    });
  });

  it("records reviews as the caller; annotators and the task's author are refused", async () => {
    const root = tempRoot();
    writeFileSync(join(root, 'task.json'), JSON.stringify({ id: 'x', instruction: 'do it', author: 'cyd' }));
    const wb = createWorkbench(root, { transport: 'http' });
    try {
      const checks = all('pass');
      await expect(
        wb.handlers['reviews.add']({ task: 'task.json', checks }, { person: 'ann', role: 'annotator' }),
      ).rejects.toThrow(/only reviewers and leads/);
      await expect(
        wb.handlers['reviews.add']({ task: 'task.json', checks }, { person: 'cyd', role: 'reviewer' }),
      ).rejects.toThrow(/other than its author/);
      expect((await wb.handlers['reviews.get']({ task: 'task.json' })).status).toBe('draft');
      await wb.handlers['reviews.add']({ task: 'task.json', checks }, { person: 'bob', role: 'reviewer' });
      const v = await wb.handlers['reviews.add'](
        {
          task: 'task.json',
          checks: { ...checks, c: { verdict: 'pass', note: 'two resets, same first screen' } },
        },
        { person: 'lee', role: 'lead' },
      );
      expect(v.status).toBe('accepted');
      expect(v.reviews.map((r) => r.author)).toEqual(['bob', 'lee']);
      expect(v.reviews[1].checks.c).toEqual({ verdict: 'pass', note: 'two resets, same first screen' });
      await expect(wb.handlers['reviews.get']({ task: '../elsewhere.json' })).rejects.toThrow();
    } finally {
      await wb.close();
    }
  });

  it('takes checks d and e from a selftest folder and shows the latest evidence per check', async () => {
    const root = tempRoot();
    writeFileSync(join(root, 'good.json'), '{}');
    writeFileSync(join(root, 'lenient.json'), '{}');
    writeFileSync(
      join(root, 'selftest.json'),
      JSON.stringify({
        tasks: [
          {
            key: 'x/good',
            file: join(root, 'good.json'),
            verdict: 'sound',
            oracle: { score: 1 },
            noop: { score: 0 },
            cut: { score: 0 },
          },
          {
            key: 'x/lenient',
            file: join(root, 'lenient.json'),
            verdict: 'too lenient',
            oracle: { score: 1 },
            noop: { score: 1 },
          },
        ],
      }),
    );
    const found = selfTestEvidence(root);
    expect(found.map((e) => `${e.file.slice(root.length + 1)} ${e.check} ${e.verdict}`)).toEqual([
      'good.json d pass',
      'good.json e pass',
      'lenient.json d pass',
      'lenient.json e fail',
    ]);
    expect(found[3].note).toBe('doing nothing scored 1, the cut oracle – (selftest: too lenient)');
    for (const e of found)
      appendEvidence(root, {
        task: e.file.slice(root.length + 1),
        check: e.check,
        verdict: e.verdict,
        note: e.note,
        source: 'selftest',
      });
    appendEvidence(root, {
      task: 'good.json',
      check: 'c',
      verdict: 'fail',
      note: 'files differ: stamp.txt',
      source: 'reset',
    });
    appendEvidence(root, {
      task: 'good.json',
      check: 'c',
      verdict: 'pass',
      note: 'resets to the same state',
      source: 'reset',
    });
    const wb = createWorkbench(root, { transport: 'http' });
    try {
      const v = await wb.handlers['reviews.get']({ task: 'good.json' });
      expect(v.evidence.map((e) => `${e.check} ${e.verdict}`)).toEqual(['c pass', 'd pass', 'e pass']);
      expect(v.status).toBe('draft'); // evidence is no review: people decide
    } finally {
      await wb.close();
    }
    expect(() => selfTestEvidence(join(root, 'nowhere'))).toThrow(/selftest\.json: not readable JSON/);
  });
});
