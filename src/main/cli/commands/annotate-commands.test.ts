// The annotation commands end to end through `main`: team add, assign, labels import, agreement --json,
// export labels (CSV and JSONL), on real run folders in a temporary folder.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../main';
import { shownPath } from '../command';
import { osworldRun, tempRoot } from '../../annotate/testing/runs';

async function proctor(...args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (l) => out.push(...l.split('\n')), err: (l) => err.push(l) });
  return { code, out, err };
}

describe('annotation commands', () => {
  it('team add prints a token once and refuses an unknown role', async () => {
    const root = tempRoot();
    const added = await proctor('team', 'add', 'ann', '--role', 'lead', '--root', root);
    expect(added.code).toBe(0);
    const token = /token .*: (\S+)$/.exec(added.out[1])![1];
    expect(readFileSync(join(root, '.proctor', 'team.json'), 'utf8')).not.toContain(token);
    expect((await proctor('team', 'list', '--root', root)).out[0]).toMatch(/^ann\s+lead$/);
    expect((await proctor('team', 'add', 'bob', '--role', 'boss', '--root', root)).code).toBe(2);
  });

  it('imports labels, then agreement --json and export labels read them', async () => {
    const root = tempRoot();
    osworldRun(root, 'runA', { t1: 1, t2: 0 });
    const rows = join(root, 'rows.csv');
    writeFileSync(
      rows,
      'run,task,person,complete\nrunA,demo/t1,ann,yes\nrunA,demo/t1,bob,no\nrunA,demo/t2,ann,no\nrunA,demo/t2,bob,no\n',
    );
    expect(await proctor('labels', 'import', rows, '--root', root)).toMatchObject({
      code: 0,
      out: ['imported 4 label(s) from ' + shownPath(rows)],
    });
    const bad = join(root, 'bad.jsonl');
    writeFileSync(bad, '{"run":"runA","task":"demo/t1","person":"cyd","complete":"yes"}\nnot json\n');
    const refused = await proctor('labels', 'import', bad, '--root', root);
    expect(refused.code).toBe(1);
    expect(refused.err[0]).toMatch(/bad\.jsonl:2: not JSON/);
    expect(refused.err[1]).toMatch(/nothing was imported/);

    const agreement = await proctor('agreement', join(root, 'runA'), '--root', root, '--json');
    expect(agreement.code).toBe(0);
    const json = JSON.parse(agreement.out.join('\n'));
    expect(typeof json.alpha).toBe('number');
    expect(json.pairs[0]).toMatchObject({ a: 'ann', b: 'bob', items: 2, kappa: 0 });
    expect(json.conflicts.map((c: { taskKey: string }) => c.taskKey)).toEqual(['demo/t1']);

    const csv = await proctor('export', 'labels', join(root, 'runA'), '--root', root, '--format', 'csv');
    expect(csv.out[0]).toBe(
      'run,run_id,task,person,role,complete,step,mark,note,comment,seen,settles,source,supersedes,at',
    );
    expect(csv.out).toHaveLength(5);
    const jsonl = await proctor('export', 'labels', '--root', root);
    expect(JSON.parse(jsonl.out[0])).toMatchObject({
      run: 'runA',
      run_id: 'runA',
      task: 'demo/t1',
      person: 'ann',
      complete: 'yes',
      source: expect.stringMatching(/^import rows\.csv:2 by /),
    });
  });

  it('assign spreads tasks over people other than the author', async () => {
    const root = tempRoot();
    const run = osworldRun(root, 'runA', { t1: 1, t2: 0, t3: 0 });
    const r = await proctor('assign', run, '--per-item', '2', '--people', 'ann,bob,cyd', '--author', 'cyd');
    expect(r.code).toBe(0);
    const lines = readFileSync(join(run, 'assignments.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(6);
    expect(lines.every((a) => a.person !== 'cyd' && a.blind === true)).toBe(true);
    expect(
      (await proctor('assign', run, '--per-item', '3', '--people', 'ann,bob,cyd', '--author', 'cyd')).code,
    ).toBe(1);
  });

  it('review records checklists and shows the status that follows', async () => {
    const root = tempRoot();
    const task = join(root, 't.json');
    writeFileSync(task, '{}');
    expect((await proctor('review', 'status', task, '--root', root)).out).toEqual(['t.json: draft']);
    expect(
      (
        await proctor(
          'review',
          task,
          'a=pass',
          'b=pass',
          'c=fail:setup writes the time',
          'd=pass',
          'e=pass',
          '--root',
          root,
        )
      ).out,
    ).toEqual(['t.json: in review']);
    const lines = readFileSync(join(root, '.proctor', 'task-reviews.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({
      kind: 'task.review',
      task: 't.json',
      checks: { c: { verdict: 'fail', note: 'setup writes the time' }, a: { verdict: 'pass' } },
    });
    expect((await proctor('review', task, 'f=pass', '--root', root)).code).toBe(2);
  });
});
