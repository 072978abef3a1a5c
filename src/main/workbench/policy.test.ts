// Every contract method walked as a blind annotator of a served team (real HTTP server, real run folders with rule
// and judge verdicts and another person's label): no answer may carry a grade. The same walk as the lead finds them,
// so the search can fail. A method added to the contract needs a sample call here, or this file does not compile.
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { methodNames, methodPolicies, type MethodName, type Params } from '../../shared/api';
import type { Verdict } from '../../shared/run';
import { osworldRun, tempRoot } from '../annotate/testing/runs';
import { writeHumanRun } from '../annotate/testing/human-run';
import { serveForTest, type Served } from '../server/testing/served';
import { appendVerdict } from '../store';
import { repoFixtures } from '../testing/shared-fixtures';
import { dispatch, refusal, servingFolder } from './dispatch';
import { blindToAll } from './blind-review';
import type { Workbench } from './workbench';

const taskId = '1137ff65-39d1-423e-bb70-7ef0a34cb90a';
const taskPath = `tasks/${taskId}.json`;

/** One call per method; the label goes to a run no other call reads, so it opens nothing the walk looks at. */
const samples: { [M in MethodName]: Params<M> } = {
  'app.info': {},
  'tasks.open': { path: 'tasks' },
  'tasks.get': { path: taskPath },
  'runs.list': {},
  'runs.get': { runId: 'runA' },
  'runs.task': { runId: 'runA', taskKey: 'demo/t1' },
  'runs.queue': { runId: 'runA' },
  'runs.compare': { runIds: ['runA', 'runB'], taskKey: 'demo/t1' },
  'runs.stepDiffs': { runIds: ['runA', 'runB'], taskKey: 'demo/t1' },
  'runs.start': { tasks: ['tasks/no-such-task.json'], agent: 'noop' },
  'runs.control': { runId: 'runA', action: 'pause' },
  'runs.pending': { runId: 'runA' },
  'runs.act': { runId: 'runA', taskKey: 'demo/t1', text: 'WAIT' },
  'runs.stats': { runId: 'runA' },
  'runs.pairedStats': { runIds: ['runA', 'runB'] },
  'labels.add': { runId: 'runC', taskKey: 'demo/t1', label: { complete: 'yes' } },
  'labels.settle': { runId: 'runA', taskKey: 'demo/t1', complete: 'no', reason: 'mine' },
  'labels.conflicts': {},
  'labels.agreement': {},
  'labels.queue': {},
  'labels.assign': { runs: ['runA'], perItem: 1, people: ['ann'] },
  'labels.me': {},
  'reviews.add': { task: taskPath, checks: { a: { verdict: 'pass' } } },
  'reviews.get': { task: taskPath },
  'demos.review': { runId: 'runA', taskKey: 'demo/t1', verdict: 'accepted', reason: 'shows the task' },
  'demos.get': { runId: 'runA', taskKey: 'demo/t1' },
  'runs.exportVideo': { runId: 'runA', taskKey: 'demo/t1' },
};

/** Where in an answer a grade is: a score or success rate, a rule or judge verdict, a label by someone else. */
function gradesIn(value: unknown, person: string, at = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => gradesIn(v, person, `${at}/${i}`));
  if (typeof value !== 'object' || value === null) return [];
  const o = value as Record<string, unknown>;
  const found: string[] = [];
  if (o.kind === 'rule' || o.kind === 'judge') found.push(`${at}: a ${o.kind} verdict`);
  if (o.kind === 'human' && o.author !== person) found.push(`${at}: ${String(o.author)}'s label`);
  for (const key of ['score', 'successRate', 'judge', 'human', 'rule'])
    if (o[key] !== undefined && o[key] !== null) found.push(`${at}/${key}`);
  for (const [k, v] of Object.entries(o)) found.push(...gradesIn(v, person, `${at}/${k}`));
  return found;
}

let root: string;
let served: Served;
let workbench: Workbench;

/** A call as a person of the team; `body` is the call's answer (result or error). */
async function call(person: string, method: string, params: unknown) {
  const { status, ...body } = await served.call(person, method, params);
  return { status, body };
}

beforeAll(async () => {
  root = tempRoot('proctor-policy-');
  mkdirSync(join(root, 'tasks'));
  copyFileSync(join(repoFixtures.spider2vExamples, 'dbt', taskId, `${taskId}.json`), join(root, taskPath));
  const runs = [
    osworldRun(root, 'runA', { t1: 1, t2: 0 }),
    osworldRun(root, 'runB', { t1: 1 }),
    osworldRun(root, 'runC', { t1: 1 }),
  ];
  const at = new Date().toISOString();
  const graded: Verdict[] = [
    { kind: 'rule', score: 1, metrics: [{ metric: 'compare_csv', score: 1 }], at },
    { kind: 'judge', reason: 'saved', subScores: [], complete: 'yes', model: 'm', options: {}, at },
    { kind: 'human', author: 'bob', role: 'annotator', complete: 'no', seen: 'blind', at }, // disagrees with the rule: a conflict
  ];
  for (const dir of runs) for (const v of graded) appendVerdict(dir, 'demo/t1', v);
  served = await serveForTest(root, { ann: 'annotator', bob: 'annotator', lee: 'lead' });
  workbench = served.workbench;
});
afterAll(async () => {
  await served?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('every contract method as a blind annotator', () => {
  it('reveals no grade in any answer or error, and refuses what only other roles may call', async () => {
    const statuses: Record<string, number> = {};
    for (const method of methodNames) {
      const { status, body } = await call('ann', method, samples[method]);
      statuses[method] = status;
      expect(gradesIn(body, 'ann'), `${method} answered ann (blind) with grades`).toEqual([]);
      expect(status, `${method}: ${JSON.stringify(body.error)}`).not.toBe(500);
      const policy = methodPolicies[method];
      if (!(policy.roles as readonly string[]).includes('annotator')) {
        expect(status, method).toBe(403);
        expect(body.error?.message).toMatch(/^ann is an annotator: only .* may /);
      }
    }
    // The reading methods answered (a walk of refusals would prove nothing).
    for (const m of [
      'app.info',
      'tasks.open',
      'tasks.get',
      'runs.list',
      'runs.get',
      'runs.task',
      'runs.compare',
      'runs.stepDiffs',
      'labels.add',
      'labels.queue',
      'labels.me',
      'reviews.get',
    ])
      expect(statuses[m], m).toBe(200);
    // Nothing the refused calls would have written was written.
    expect(
      readFileSync(join(root, 'runA', 'demo', 't1', 'verdicts.jsonl'), 'utf8')
        .trim()
        .split('\n'),
    ).toHaveLength(3);
  });

  it('marks each compared trajectory blind for an annotator who has not labelled it, open for one who has', async () => {
    const before = (await call('bob', 'runs.compare', samples['runs.compare'])).body.result as {
      runs: { blind?: boolean; verdicts: Verdict[] }[];
    };
    // bob labelled demo/t1 in both runs: he sees the grades, as in the replay.
    expect(before.runs.map((r) => r.blind)).toEqual([undefined, undefined]);
    expect(before.runs[0].verdicts.map((v) => v.kind)).toEqual(['rule', 'judge', 'human']);
    const ann = (await call('ann', 'runs.compare', samples['runs.compare'])).body.result as {
      runs: { blind?: boolean; verdicts: Verdict[] }[];
    };
    expect(ann.runs.map((r) => r.blind)).toEqual([true, true]);
  });

  it('finds the grades the same calls give the lead (the search can fail)', async () => {
    for (const method of [
      'runs.list',
      'runs.get',
      'runs.task',
      'runs.compare',
      'labels.conflicts',
    ] as const) {
      const { status, body } = await call('lee', method, samples[method]);
      expect(status, method).toBe(200);
      expect(gradesIn(body, 'lee').length, `${method} as the lead`).toBeGreaterThan(0);
    }
  });
});

describe('host paths', () => {
  it('answers every person of a team with paths below the served folder, never its place on the machine', async () => {
    for (const person of ['ann', 'lee'])
      for (const method of methodNames) {
        const { body } = await call(person, method, samples[method]);
        expect(JSON.stringify(body), `${method} answered ${person}`).not.toContain(root);
      }
    // Proctor's own user (no team caller) is told where things are, so the walk above can fail.
    // Errors too, through the same handlers: the run's folder is named below the served root.
    await writeHumanRun(join(root, 'people'), { domain: 'terminal', id: 't9' }, ['DONE'], 'p1');
    const remote = await call('lee', 'runs.task', { runId: 'people/p1', taskKey: 'terminal/none' });
    expect([remote.status, remote.body.error?.message]).toEqual([
      404,
      expect.stringContaining('people/p1/manifest.json'),
    ]);
  });

  it('the dispatcher takes the served folder out of any answer or error to a person of a team, not to the local user', async () => {
    const where = join(root, 'runs', 'x');
    const handlers = servingFolder(
      {
        ...workbench.handlers,
        'app.info': async () => ({ home: where, nested: [{ file: `${where}/a.png` }], note: `read ${root}` }),
        'runs.get': async () => {
          throw new Error(`cannot read ${where}/manifest.json`);
        },
      } as unknown as typeof workbench.handlers,
      blindToAll,
      root,
    );
    const lee = { person: 'lee', role: 'lead' } as const;
    expect(await dispatch(handlers, 'app.info', {}, lee)).toEqual({
      ok: true,
      result: { home: 'runs/x', nested: [{ file: 'runs/x/a.png' }], note: 'read .' },
    });
    expect(await dispatch(handlers, 'runs.get', { runId: 'x' }, lee)).toEqual({
      ok: false,
      error: { code: 'internal', message: 'cannot read runs/x/manifest.json' },
    });
    expect(await dispatch(handlers, 'app.info', {})).toEqual({
      ok: true,
      result: { home: where, nested: [{ file: `${where}/a.png` }], note: `read ${root}` },
    });
  });
});

describe("the dispatcher's policy", () => {
  it('refuses a method revealing secrets to every person of a team, not to the local user', () => {
    const policy = { reveals: ['secrets'], roles: ['annotator', 'reviewer', 'lead'] } as const;
    expect(refusal('app.info', policy, { person: 'lee', role: 'lead' }, true)?.message).toBe(
      "app.info reveals secrets: it is answered only to Proctor's local user",
    );
    expect(refusal('app.info', policy, { person: 'me', role: 'lead' }, false)).toBeUndefined();
    expect(
      refusal('labels.assign', methodPolicies['labels.assign'], { person: 'cyd', role: 'reviewer' }, true)
        ?.message,
    ).toBe('cyd is a reviewer: only leads may assign work');
  });

  it('keeps every annotator blind with handlers no workbench registered (fails closed)', async () => {
    const unregistered = { ...workbench.handlers };
    const r = await dispatch(unregistered, 'runs.task', samples['runs.task'], {
      person: 'bob',
      role: 'annotator',
    });
    expect(r.ok && (r.result as { blind?: boolean }).blind).toBe(true);
    const registered = await dispatch(workbench.handlers, 'runs.task', samples['runs.task'], {
      person: 'bob',
      role: 'annotator',
    });
    expect(registered.ok && (registered.result as { blind?: boolean }).blind).toBeUndefined(); // bob labelled it
  });
});
