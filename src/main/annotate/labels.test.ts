// Labels as events: settled verdicts, import (all rows or none, each refusal named by file and line), export
// with provenance, conflicts and agreement over real run folders, assignments and queues.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HumanLabel } from '../../shared/run';
import { appendVerdict } from '../store';
import { planAssignments, workQueue, writeAssignments } from './assign';
import { agreementOf, conflictsOf, labelledItems } from './items';
import { exportRows, importLabelRows, parseCsv, rowsAsCsv } from './label-rows';
import { currentLabels, currentStepMarks, settledVerdict } from './labels';
import { osworldRun, tempRoot } from './testing/runs';
import { breakdown, readReportRun } from '../report';
import { verdictSources } from './report-verdict';

const label = (
  author: string,
  complete: HumanLabel['complete'],
  at: string,
  extra: Partial<HumanLabel> = {},
): HumanLabel => ({
  kind: 'human',
  author,
  complete,
  at,
  ...extra,
});

describe('settled verdict', () => {
  it('takes the lead, else agreeing people, else the judge, else the rule', () => {
    const ann = label('ann', 'yes', '1');
    const bob = label('bob', 'no', '2');
    expect(settledVerdict([], undefined, 0)).toEqual({ complete: 'no', source: 'rule', by: ['rule'] });
    expect(settledVerdict([], 'yes', 0)).toMatchObject({ complete: 'yes', source: 'judge' });
    expect(settledVerdict([], 'unsure', 1)).toMatchObject({ complete: 'yes', source: 'rule' });
    expect(settledVerdict([ann, label('bob', 'yes', '2')], 'no', 0)).toMatchObject({
      complete: 'yes',
      source: 'people',
      by: ['ann', 'bob'],
    });
    expect(settledVerdict([ann, bob], 'no', 1)).toMatchObject({ complete: 'no', source: 'judge' });
    const lead = label('lee', 'yes', '3', { settles: { reason: 'the file is right' } });
    expect(settledVerdict([ann, bob, lead], 'no', 0)).toMatchObject({
      complete: 'yes',
      source: 'lead',
      by: ['lee'],
    });
  });

  it("an edit appends: the person's latest label counts, the earlier one stays in the events", () => {
    const labels = [label('ann', 'no', '1'), label('bob', 'yes', '2'), label('ann', 'yes', '3')];
    expect(currentLabels(labels).map((p) => `${p.person} ${p.complete}`)).toEqual(['ann yes', 'bob yes']);
    const steps = currentStepMarks([
      label('ann', undefined, '1', {
        steps: [
          { step: 1, correct: true },
          { step: 2, correct: false, mark: 'unnecessary', note: 'extra click' },
        ],
      }),
      label('ann', undefined, '2', { steps: [{ step: 1, correct: false, mark: 'wrong' }] }),
    ]);
    expect(steps.get(1)?.get('ann')).toEqual({ mark: 'wrong' });
    expect(steps.get(2)?.get('ann')).toEqual({ mark: 'unnecessary', note: 'extra click' });
  });
});

describe('labels import', () => {
  it('imports JSONL run and step rows, with the file and line as provenance', () => {
    const root = tempRoot();
    osworldRun(root, 'runA', { t1: 1, t2: 0 });
    const file = join(root, 'labels.jsonl');
    writeFileSync(
      file,
      [
        { run: 'runA', task: 'demo/t1', person: 'ann', complete: 'yes', comment: 'fine' },
        { run: 'runA', task: 'demo/t1', person: 'ann', step: 2, mark: 'unnecessary', note: 'extra' },
        { run: 'runA', task: 'demo/t2', person: 'bob', complete: 'no' },
      ]
        .map((r) => JSON.stringify(r))
        .join('\n') + '\n',
    );
    const out = importLabelRows(file, root, 'importer', () => '2026-11-22T10:00:00.000Z');
    expect(out).toEqual({ imported: 3, problems: [] });
    const items = labelledItems([join(root, 'runA')], root);
    const t1 = items.find((i) => i.taskKey === 'demo/t1')!;
    expect(t1.labels.map((l) => l.source)).toEqual([
      'import labels.jsonl:1 by importer',
      'import labels.jsonl:2 by importer',
    ]);
    expect(t1.labels[1].steps).toEqual([{ step: 2, correct: false, mark: 'unnecessary', note: 'extra' }]);
    const rows = exportRows(items);
    expect(rows.map((r) => [r.task, r.person, r.complete, r.step, r.mark])).toEqual([
      ['demo/t1', 'ann', 'yes', '', ''],
      ['demo/t1', 'ann', '', '2', 'unnecessary'],
      ['demo/t2', 'bob', 'no', '', ''],
    ]);
    const csv = rowsAsCsv(rows);
    expect(parseCsv(csv)[0].fields).toEqual([
      'run',
      'run_id',
      'task',
      'person',
      'role',
      'complete',
      'step',
      'mark',
      'note',
      'comment',
      'seen',
      'settles',
      'source',
      'supersedes',
      'at',
    ]);
    expect(parseCsv(csv)[1].fields).toContain('import labels.jsonl:1 by importer');
  });

  it('refuses a CSV with bad rows, naming each by file and line, and writes nothing', () => {
    const root = tempRoot();
    const run = osworldRun(root, 'runA', { t1: 1 });
    const file = join(root, 'labels.csv');
    writeFileSync(
      file,
      [
        'run,task,person,complete,step,comment',
        'runA,demo/t1,ann,yes,,"good, with a comma"',
        'runA,demo/t9,ann,yes,,',
        'runA,demo/t1,bob,maybe,,',
        'runB,demo/t1,cyd,no,,',
        'runA,demo/t1,,no,,',
        'runA,demo/t1,dan,unsure,0,',
        '"runA","demo/t1","eve","no","","multi',
        'line"',
        'runA,demo/t1,fay,no,,',
      ].join('\n'),
    );
    const out = importLabelRows(file, root, 'importer');
    expect(out.imported).toBe(0);
    expect(out.problems.map((p) => `${p.line}: ${p.message}`)).toEqual([
      "3: task 'demo/t9' is not in run 'runA'",
      "4: complete must be yes, no or unsure, not 'maybe'",
      expect.stringMatching(/^5: run 'runB': no run folder runB/),
      "6: 'person' is missing or not text",
      "7: step must be a whole number from 1, not '0'",
    ]);
    expect(out.problems.every((p) => p.file === file)).toBe(true);
    expect(existsSync(join(run, 'demo', 't1', 'verdicts.jsonl'))).toBe(false);
    // Fixed, the same file imports every row, the quoted line break kept in its comment.
    writeFileSync(
      file,
      readFileSync(file, 'utf8')
        .split('\n')
        .filter((_, i) => i < 2 || i > 6)
        .join('\n'),
    );
    expect(importLabelRows(file, root, 'importer').imported).toBe(3);
    const labels = labelledItems([run], root)[0].labels;
    expect(labels.map((l) => l.author)).toEqual(['ann', 'eve', 'fay']);
    expect(labels[1].comment).toBe('multi\nline');
    expect(labels[2].source).toBe('import labels.csv:5 by importer'); // its line in the fixed file
  });
});

describe('conflicts, agreement and assignments over run folders', () => {
  it('puts a task whose rule verdict is flagged brittle in the conflict queue for people to settle', () => {
    const root = tempRoot();
    const run = osworldRun(root, 'runB', { t1: 1, t2: 1 });
    appendVerdict(run, 'demo/t1', {
      kind: 'rule',
      score: 1,
      metrics: [],
      reason: 'regraded',
      brittle: ['quoted cells: faithful 0, robust 1'],
      at: '1',
    } as never);
    appendVerdict(run, 'demo/t2', {
      kind: 'rule',
      score: 1,
      metrics: [],
      reason: 'regraded',
      brittle: [],
      at: '2',
    } as never);
    const conflicts = conflictsOf(labelledItems([run], root));
    expect(conflicts.map((c) => [c.taskKey, c.why, c.brittle])).toEqual([
      ['demo/t1', 'brittle', ['quoted cells: faithful 0, robust 1']],
    ]);
  });

  it("finds people-vs-people and people-vs-rule conflicts; a lead's settlement keeps the others' labels", () => {
    const root = tempRoot();
    const run = osworldRun(root, 'runA', { t1: 1, t2: 0, t3: 1 });
    appendVerdict(run, 'demo/t1', label('ann', 'yes', '1'));
    appendVerdict(run, 'demo/t1', label('bob', 'no', '2'));
    appendVerdict(run, 'demo/t2', label('ann', 'yes', '3'));
    appendVerdict(run, 'demo/t2', label('bob', 'yes', '4'));
    appendVerdict(run, 'demo/t3', label('ann', 'yes', '5'));
    appendVerdict(run, 'demo/t3', label('bob', 'yes', '6'));
    let conflicts = conflictsOf(labelledItems([run], root));
    expect(conflicts.map((c) => [c.taskKey, c.why, c.settled])).toEqual([
      ['demo/t1', 'people', undefined],
      ['demo/t2', 'rule', undefined],
    ]);
    appendVerdict(
      run,
      'demo/t1',
      label('lee', 'no', '7', { role: 'lead', settles: { reason: 'step 2 saved the wrong file' } }),
    );
    const items = labelledItems([run], root);
    conflicts = conflictsOf(items);
    expect(conflicts[0].settled).toEqual({
      by: 'lee',
      complete: 'no',
      reason: 'step 2 saved the wrong file',
      at: '7',
    });
    expect(conflicts[0].people.map((p) => p.person)).toEqual(['ann', 'bob']);
    expect(items[0].settled).toMatchObject({ source: 'lead', complete: 'no' });
    const figures = agreementOf(items);
    // ann and bob: t1 yes/no, t2 yes/yes, t3 yes/yes → p_o = 2/3, p_e = 1·(2/3) → kappa 0.
    expect(figures.pairs[0]).toMatchObject({ a: 'ann', b: 'bob', items: 3 });
    expect(figures.pairs[0].kappa).toBeCloseTo(0, 12);
    expect(figures.pairs.find((p) => p.a === 'rule' && p.b === 'ann')).toMatchObject({ items: 3 });
    expect(Object.keys(figures.byApp)).toEqual(['demo']); // an OSWorld run's domain folder is its tasks' app
    expect(figures.steps).toMatchObject({ items: 0, pairs: [] });
    // Step marks: ann and bob agree on step 1 (right), differ on step 2 (wrong / unnecessary).
    appendVerdict(
      run,
      'demo/t1',
      label('ann', undefined, '8', {
        steps: [
          { step: 1, correct: true },
          { step: 2, correct: false, mark: 'wrong' },
        ],
      }),
    );
    appendVerdict(
      run,
      'demo/t1',
      label('bob', undefined, '9', {
        steps: [
          { step: 1, correct: true, mark: 'right' },
          { step: 2, correct: false, mark: 'unnecessary' },
        ],
      }),
    );
    const steps = agreementOf(labelledItems([run], root)).steps!;
    expect(steps.items).toBe(2);
    expect(steps.pairs).toEqual([{ a: 'ann', b: 'bob', items: 2, kappa: expect.any(Number), observed: 0.5 }]);
    // p_o = 1/2; p_e = ½·½ (right) + ½·0 (wrong) = ¼ → kappa = (½ − ¼)/(1 − ¼) = 1/3
    expect(steps.pairs[0].kappa).toBeCloseTo(1 / 3, 12);
  });

  it('gives each item k people other than its author, evenly, and a queue per person', () => {
    const root = tempRoot();
    const a = osworldRun(root, 'runA', { t1: 1, t2: 0, t3: 1 });
    const b = osworldRun(root, 'runB', { t1: 0 });
    const plan = planAssignments([a, b], ['ann', 'bob', 'cyd'], 2, {
      by: 'lee',
      blind: true,
      authorOf: (dir) => (dir === a ? 'ann' : undefined),
      now: () => 'T',
    });
    expect(plan.short).toEqual([]);
    const made = [...plan.byRun.values()].flat();
    expect(made).toHaveLength(8);
    for (const t of ['demo/t1', 'demo/t2', 'demo/t3'])
      expect(
        plan.byRun
          .get(a)!
          .filter((x) => x.task === t)
          .map((x) => x.person)
          .sort(),
      ).toEqual(['bob', 'cyd']);
    expect(plan.byRun.get(b)!.map((x) => x.person)).toEqual(['ann', 'bob']); // ann has the least load
    expect(writeAssignments(plan)).toBe(8);
    appendVerdict(a, 'demo/t1', label('bob', 'yes', '1'));
    const q = workQueue('bob', labelledItems([a, b], root));
    expect([q.done, q.total]).toEqual([1, 4]);
    expect(q.next).toMatchObject({ run: 'runA', taskKey: 'demo/t2', blind: true });
    // Planning again adds nobody: every item already has its two people.
    expect(
      [
        ...planAssignments([a, b], ['ann', 'bob', 'cyd'], 2, { by: 'lee', blind: true }).byRun.values(),
      ].flat(),
    ).toEqual([]);
    // Too few people besides the author is said, not hidden.
    const c = osworldRun(root, 'runC', { t1: 0, t2: 0 });
    expect(
      planAssignments([c], ['ann', 'bob'], 2, { by: 'lee', blind: true, authorOf: () => 'ann' }).short,
    ).toEqual([
      { run: c, task: 'demo/t1', got: 1 },
      { run: c, task: 'demo/t2', got: 1 },
    ]);
  });
});

describe('proctor report on settled verdicts', () => {
  it('rests each row on the lead, else agreeing people, else the rule, and the rate follows', async () => {
    const root = tempRoot();
    const run = osworldRun(root, 'runA', { t1: 1, t2: 0, t3: 0 });
    const rate = async () => breakdown((await readReportRun(run)).rows, ['app']).overall.rate;
    expect(await rate()).toBeCloseTo(1 / 3, 12);
    appendVerdict(run, 'demo/t2', label('ann', 'yes', '1'));
    appendVerdict(run, 'demo/t2', label('bob', 'yes', '2'));
    expect(await rate()).toBeCloseTo(2 / 3, 12);
    appendVerdict(run, 'demo/t1', label('ann', 'yes', '3'));
    appendVerdict(run, 'demo/t1', label('bob', 'no', '4'));
    expect(await rate()).toBeCloseTo(2 / 3, 12); // people disagree: the rule's 1 stands
    appendVerdict(run, 'demo/t1', label('lee', 'no', '5', { settles: { reason: 'nothing saved' } }));
    const rows = (await readReportRun(run)).rows;
    expect(rows.map((r) => [r.key, r.score, r.verdict?.source])).toEqual([
      ['demo/t1', 0, 'lead'],
      ['demo/t2', 1, 'people'],
      ['demo/t3', 0, 'rule'],
    ]);
    expect(await rate()).toBeCloseTo(1 / 3, 12);
    expect(verdictSources(rows)).toBe('1 lead, 1 people, 1 rule');
  });
});
