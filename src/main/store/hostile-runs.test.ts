// Run folders from other people are untrusted: a manifest may point outside the run, or be damaged. The reader
// reports it and goes on; nothing is written outside the run.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendVerdict, listRuns, readRun } from '.';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'proctor-hostile-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function run(name: string, manifest: unknown): string {
  const dir = join(root, 'results', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'manifest.json'),
    typeof manifest === 'string' ? manifest : JSON.stringify(manifest),
  );
  return dir;
}

describe('hostile run folders', () => {
  it('refuses a task folder outside the run, for reading and for labels', () => {
    const dir = run('escape', {
      runId: 'escape',
      startedAt: '2026-01-01T00:00:00Z',
      agent: 'x',
      tasks: ['a/b'],
      taskInfo: { 'a/b': { dir: '../../../owned' } },
    });
    const detail = readRun(dir, root);
    expect(detail.tasks[0].key).toBe('a/b');
    expect(
      detail.problems.some(
        (p) => /outside the run folder/.test(p.message) && p.pointer === '/taskInfo/a~1b/dir',
      ),
    ).toBe(true);
    expect(() =>
      appendVerdict(dir, 'a/b', {
        kind: 'human',
        author: 'eve',
        complete: 'yes',
        at: new Date().toISOString(),
      }),
    ).toThrow(/outside the run folder/);
    expect(existsSync(join(root, '..', 'owned'))).toBe(false);
  });

  it('lists a damaged run with its error beside the readable ones', () => {
    run('broken', '{ "runId": ');
    run('wrong-shape', { runId: 'wrong-shape', tasks: 'not a list' });
    run('fine', { runId: 'fine', startedAt: '2026-01-01T00:00:00Z', agent: 'x', tasks: [] });
    const runs = listRuns(root);
    expect(runs.map((r) => r.runId).sort()).toEqual(['broken', 'fine', 'wrong-shape']);
    expect(runs.find((r) => r.runId === 'broken')?.error).toMatch(/manifest\.json/);
    expect(runs.find((r) => r.runId === 'wrong-shape')?.error).toMatch(/\/tasks must be a list/);
    expect(runs.find((r) => r.runId === 'fine')?.error).toBeUndefined();
  });
});
