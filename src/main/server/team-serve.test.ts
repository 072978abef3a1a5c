// `proctor serve` with a team: a login page trades a person's token for an HttpOnly SameSite=Strict cookie,
// every call runs as that person, nobody labels as someone else, annotators label blind and cannot settle.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkbench } from '../workbench/workbench';
import { localCaller } from '../annotate/team';
import { osworldRun, tempRoot } from '../annotate/testing/runs';
import type { RunningServer } from './http-server';
import { gradeFile, withheldEvent } from './team-gate';
import { serveForTest, type RawOptions, type Served } from './testing/served';

let root: string;
let run: string;
let served: Served;
let server: RunningServer;
let tokens: Record<string, string>;
const raw = (path: string, opts?: RawOptions) => served.raw(path, opts);
const call = (person: string | undefined, method: string, params: unknown) =>
  served.call(person, method, params);

const verdictsFile = () => join(run, 'demo', 't1', 'verdicts.jsonl');
const verdictLines = () =>
  existsSync(verdictsFile()) ? readFileSync(verdictsFile(), 'utf8').trim().split('\n').filter(Boolean) : [];

beforeAll(async () => {
  root = tempRoot('proctor-team-');
  run = osworldRun(root, 'runA', { t1: 1 });
  served = await serveForTest(root, { ann: 'annotator', bob: 'annotator', lee: 'lead' });
  ({ server, tokens } = served);
});
afterAll(async () => {
  await served?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('proctor serve with a team', () => {
  it('stores only hashes of the tokens', () => {
    const text = readFileSync(join(root, '.proctor', 'team.json'), 'utf8');
    for (const t of Object.values(tokens)) expect(text).not.toContain(t);
    expect(JSON.parse(text).people.map((p: { name: string; role: string }) => `${p.name} ${p.role}`)).toEqual(
      ['ann annotator', 'bob annotator', 'lee lead'],
    );
  });

  it('sends the UI to the login page, which trades a good token for an HttpOnly SameSite=Strict cookie', async () => {
    expect((await raw('/')).status).toBe(303);
    expect((await raw('/')).headers.location).toBe('/login');
    const page = await raw('/login');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<form method="post" action="/login">');
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const bad = await raw('/login', { method: 'POST', headers: form, body: 'token=not-a-token' });
    expect(bad.status).toBe(401);
    expect(bad.headers['set-cookie']).toBeUndefined();
    const good = await raw('/login', {
      method: 'POST',
      headers: form,
      body: `token=${encodeURIComponent(tokens.ann)}`,
    });
    expect(good.status).toBe(303);
    expect(good.headers['set-cookie']?.[0]).toBe(
      `proctor-person-${server.port}=${tokens.ann}; HttpOnly; SameSite=Strict; Path=/`,
    );
    const foreign = await raw('/login', {
      method: 'POST',
      headers: { ...form, origin: 'https://evil.example' },
      body: `token=${tokens.ann}`,
    });
    expect(foreign.status).toBe(403);
    expect(
      (await raw('/', { headers: { cookie: `proctor-person-${server.port}=${tokens.ann}` } })).status,
    ).toBe(200);
    const out = await raw('/logout', { method: 'POST' });
    expect(out.status).toBe(303);
    expect(out.headers['set-cookie']?.[0]).toMatch(
      new RegExp(`^proctor-person-${server.port}=; .*Max-Age=0`),
    );
  });

  it("refuses calls and files without a person's token; scripts may send it as a Bearer header", async () => {
    expect((await call(undefined, 'labels.me', {})).status).toBe(401);
    expect((await raw('/files/runA/demo/t1/traj.jsonl')).status).toBe(401);
    const me = await raw('/api/call', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens.lee}` },
      body: JSON.stringify({ method: 'labels.me', params: {} }),
    });
    expect(JSON.parse(me.body).result).toEqual({ person: 'lee', role: 'lead', team: true });
  });

  it("keeps an annotator blind until they label, and records the label as the token's person", async () => {
    const before = await call('ann', 'runs.task', { runId: 'runA', taskKey: 'demo/t1' });
    expect(before.result.blind).toBe(true);
    expect(before.result.item.score).toBeUndefined();
    expect(before.result.verdicts).toEqual([]);
    expect((await call('ann', 'runs.get', { runId: 'runA' })).result.tasks[0].score).toBeUndefined();
    expect(
      (
        await raw('/files/runA/demo/t1/result.txt', {
          headers: { cookie: `proctor-person-${server.port}=${tokens.ann}` },
        })
      ).status,
    ).toBe(403);
    expect((await call('lee', 'runs.task', { runId: 'runA', taskKey: 'demo/t1' })).result.item.score).toBe(1);

    const ok = await call('ann', 'labels.add', {
      runId: 'runA',
      taskKey: 'demo/t1',
      label: { complete: 'no', steps: [{ step: 2, mark: 'wrong', note: 'saved nothing' }] },
    });
    expect(ok.result).toEqual({ ok: true });
    const stored = JSON.parse(verdictLines()[0]);
    expect(stored).toMatchObject({
      kind: 'human',
      author: 'ann',
      role: 'annotator',
      complete: 'no',
      seen: 'blind',
      steps: [{ step: 2, correct: false, mark: 'wrong', note: 'saved nothing' }],
    });
    const after = await call('ann', 'runs.task', { runId: 'runA', taskKey: 'demo/t1' });
    expect(after.result.blind).toBeUndefined();
    expect(after.result.item.score).toBe(1);
  });

  it("refuses to label as someone else, and an annotator's settling: 403, nothing written", async () => {
    const n = verdictLines().length;
    const spoof = await call('bob', 'labels.add', {
      runId: 'runA',
      taskKey: 'demo/t1',
      label: { author: 'ann', complete: 'yes' },
    });
    expect(spoof.status).toBe(403);
    expect(spoof.error?.message).toMatch(/you are bob/);
    const settle = await call('ann', 'labels.settle', {
      runId: 'runA',
      taskKey: 'demo/t1',
      complete: 'no',
      reason: 'mine',
    });
    expect(settle.status).toBe(403);
    expect((await call('ann', 'labels.conflicts', {})).status).toBe(403);
    expect(verdictLines()).toHaveLength(n);
  });

  it("puts a disagreement in the lead's queue, and the lead settles it with a reason", async () => {
    await call('bob', 'labels.add', { runId: 'runA', taskKey: 'demo/t1', label: { complete: 'yes' } });
    const queue = await call('lee', 'labels.conflicts', {});
    expect(queue.result).toHaveLength(1);
    expect(queue.result[0]).toMatchObject({ run: 'runA', taskKey: 'demo/t1', why: 'people', rule: 'yes' });
    expect(
      queue.result[0].people.map((p: { person: string; complete: string }) => `${p.person} ${p.complete}`),
    ).toEqual(['ann no', 'bob yes']);
    expect(
      (
        await call('lee', 'labels.settle', {
          runId: 'runA',
          taskKey: 'demo/t1',
          complete: 'no',
          reason: 'step 2 saved nothing',
        })
      ).result,
    ).toEqual({ ok: true });
    const settled = (await call('lee', 'labels.conflicts', {})).result[0].settled;
    expect(settled).toMatchObject({ by: 'lee', complete: 'no', reason: 'step 2 saved nothing' });
    expect(verdictLines().map((l) => JSON.parse(l).author)).toEqual(['ann', 'bob', 'lee']);
    const agreement = await call('lee', 'labels.agreement', {});
    expect(agreement.result.pairs[0]).toMatchObject({ a: 'ann', b: 'bob', items: 1 });
  });
});

describe('assignments from the workbench', () => {
  it('a lead assigns, the annotator finds it in her queue; an annotator may not assign', async () => {
    expect((await call('ann', 'labels.assign', { runs: ['runA'], perItem: 1, people: ['ann'] })).status).toBe(
      403,
    );
    expect(
      (await call('lee', 'labels.assign', { runs: ['runA'], perItem: 1, people: ['nobody'] })).status,
    ).toBe(400);
    expect(
      (await call('lee', 'labels.assign', { runs: ['runA'], perItem: 2, people: ['ann', 'bob'] })).result,
    ).toEqual({ assigned: 2, short: [] });
    const queue = (await call('ann', 'labels.queue', {})).result;
    expect(queue).toMatchObject({
      person: 'ann',
      done: 1,
      total: 1,
      items: [{ run: 'runA', taskKey: 'demo/t1', done: true, blind: true }],
    });
  });
});

describe('without a team', () => {
  it('labels as the OS user', async () => {
    const solo = tempRoot('proctor-solo-');
    const r = osworldRun(solo, 'runA', { t1: 0 });
    const wb = createWorkbench(solo, { transport: 'http' });
    try {
      expect(await wb.handlers['labels.me']({})).toEqual({ ...localCaller(), team: false });
      await wb.handlers['labels.add']({ runId: 'runA', taskKey: 'demo/t1', label: { complete: 'yes' } });
      expect(JSON.parse(readFileSync(join(r, 'demo', 't1', 'verdicts.jsonl'), 'utf8'))).toMatchObject({
        author: localCaller().person,
        seen: 'open',
      });
      await expect(
        wb.handlers['labels.add']({
          runId: 'runA',
          taskKey: 'demo/t1',
          label: { author: 'somebody-else', complete: 'no' },
        }),
      ).rejects.toThrow(/cannot be recorded as somebody-else/);
    } finally {
      await wb.close();
      rmSync(solo, { recursive: true, force: true });
    }
  });
});

describe('what annotators are not sent', () => {
  it("withholds live verdicts and finished tasks' scores, and grading files", () => {
    const verdict = {
      kind: 'verdict' as const,
      runId: 'r',
      taskKey: 'd/t',
      verdict: { kind: 'human' as const, author: 'bob', complete: 'yes' as const, at: '1' },
    };
    expect(withheldEvent('run', verdict)).toBeUndefined();
    const finished = {
      kind: 'task.finished' as const,
      runId: 'r',
      taskKey: 'd/t',
      at: '1',
      state: 'success' as const,
      score: 1,
    };
    expect(withheldEvent('run', finished)).toEqual({
      kind: 'task.finished',
      runId: 'r',
      taskKey: 'd/t',
      at: '1',
      state: 'success',
    });
    const step = { kind: 'task.started' as const, runId: 'r', taskKey: 'd/t', at: '1' };
    expect(withheldEvent('run', step)).toBe(step);
    for (const f of [
      '/files/r/d/t/verdicts.jsonl',
      '/files/r/d/t/result.txt',
      '/files/r/summary.json',
      '/files/r/events.jsonl',
      '/files/r/d/t/traj.jsonl',
    ])
      expect(gradeFile(f)).toBe(true);
    expect(gradeFile('/files/r/d/t/step_1.png')).toBe(false);
  });
});
